import type { HeldoutRoot } from './heldout-root';

/**
 * BitSota's replay profile (DECISIONS §15): their task packs read `AUTORESEARCH_*` variables, announce every
 * refusal with a `validator_rejection=<code>` line, and write their result file only on success.
 */
export const PROFILE_VARIABLE = 'RCS_REPLAY_PROFILE';
export const PROFILE_NAME = 'bitsota-autoresearch-v1';
/** The source name (a coordinator shard or `_URL` + `_SHA256`) that becomes their manifest and root. */
export const PRIVATE_HELDOUT = 'AUTORESEARCH_PRIVATE_HELDOUT';
export const PRIVATE_SHARD_DATASET = 'validator-private-shard';

/** Hugging Face row sources the host fetches (hf-rows.ts). */
export const ROW_SOURCES = 'AUTORESEARCH_HELDOUT_SOURCES_JSON';

/** The row sources' credential, in the order the task's private env is read for it. */
export const HF_TOKEN_KEYS: readonly string[] = ['AUTORESEARCH_PRIVATE_HELDOUT_HF_TOKEN', 'HF_TOKEN', 'HUGGINGFACE_TOKEN'];

/** Validator-private values that never enter the sandbox (sources and credentials the host reads). */
export const HOST_ONLY_KEYS: readonly string[] = [ROW_SOURCES, ...HF_TOKEN_KEYS];

/** The row sources' token from a task's private env, or null. */
export function rowSourcesToken(taskEnv: Record<string, string>): string | null {
  return HF_TOKEN_KEYS.map((key) => taskEnv[key]).find((value) => value !== undefined) ?? null;
}

/** A job's rotation pair, as the scan answers it. */
export interface HeldoutRotation {
  slot: number;
  number: string;
}

/** A refusal the benchmark (or setup) announced: its code, and the rest of the line. */
export interface AnnouncedRejection {
  code: string;
  details: string;
}

const REJECTION_LINE = /^validator_rejection=(\S*)(?:[ \t]+(.*))?$/gm;
const REJECTION_CODE = /^[a-z_]{1,64}$/;

/** Whether the task's private env asks for the profile: any `AUTORESEARCH_` key, or RCS_REPLAY_PROFILE. */
export function usesProfile(env: Record<string, string>): boolean {
  return Object.keys(env).some((key) => key.startsWith('AUTORESEARCH_')) || env[PROFILE_VARIABLE] === PROFILE_NAME;
}

/** The artifact as their benchmarks read it: the same read-only path, and the verified size. */
export function artifactProfileEnv(path: string, bytes: number): Record<string, string> {
  return { AUTORESEARCH_SUBMISSION_ARTIFACT_PATH: path, AUTORESEARCH_SUBMISSION_ARTIFACT_BYTES: String(bytes) };
}

/** Their manifest and root, and the dataset name unless the task names its own. */
export function heldoutProfileEnv(root: HeldoutRoot, taskEnv: Record<string, string>): Record<string, string> {
  return {
    AUTORESEARCH_PRIVATE_HELDOUT_MANIFEST: root.manifest,
    AUTORESEARCH_PRIVATE_HELDOUT_ROOT: root.root,
    AUTORESEARCH_HELDOUT_DATASET: taskEnv.AUTORESEARCH_HELDOUT_DATASET ?? PRIVATE_SHARD_DATASET,
  };
}

/** The job's rotation pair; a task that sets either variable keeps its own (a fixed rotation). */
export function rotationEnv(rotation: HeldoutRotation | null | undefined, taskEnv: Record<string, string>): Record<string, string> {
  if (rotation === null || rotation === undefined) return {};
  return {
    AUTORESEARCH_HELDOUT_SYNC_SLOT: taskEnv.AUTORESEARCH_HELDOUT_SYNC_SLOT ?? String(rotation.slot),
    AUTORESEARCH_HELDOUT_SYNC_NUMBER: taskEnv.AUTORESEARCH_HELDOUT_SYNC_NUMBER ?? rotation.number,
  };
}

/** The last `validator_rejection=<code>[ details]` line of a command's output, when its code is well formed. */
export function announcedRejection(output: string): AnnouncedRejection | null {
  let last: AnnouncedRejection | null = null;
  for (const match of output.matchAll(REJECTION_LINE)) last = { code: match[1], details: (match[2] ?? '').trim() };
  return last !== null && REJECTION_CODE.test(last.code) ? last : null;
}

import { readFile } from 'node:fs/promises';
import type { ValidatorJobToReplay } from '../replay/replay-pipeline';

/** The job file cannot be read or is not a saved job. */
export class JobFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFileError';
  }
}

/** Reads and checks a saved job file. */
export async function readJobFile(path: string): Promise<ValidatorJobToReplay> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new JobFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseJobFile(text, path);
}

const REQUIRED_STRINGS = ['repository', 'base_ref', 'benchmark_command', 'metric_name', 'patch'] as const;
const NULLABLE_STRINGS = ['base_commit_sha', 'setup_command', 'result_path', 'secondary_metric_name', 'artifact_uri', 'artifact_sha256'] as const;

/** A ValidatorJobDto as the scan answers it; the replay_spec fields a replay reads are checked. */
export function parseJobFile(text: string, path: string): ValidatorJobToReplay {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JobFileError(`${path} is not JSON`);
  }
  const job = record(value, `${path}`);
  const spec = record(job.replay_spec, `${path}: replay_spec`);
  const problems: string[] = [];
  for (const key of ['job_id', 'submission_id']) if (typeof job[key] !== 'string') problems.push(`${key} must be a string`);
  for (const key of REQUIRED_STRINGS) if (typeof spec[key] !== 'string') problems.push(`replay_spec.${key} must be a string`);
  for (const key of NULLABLE_STRINGS) if (spec[key] !== undefined && spec[key] !== null && typeof spec[key] !== 'string') problems.push(`replay_spec.${key} must be a string or null`);
  for (const key of ['time_budget_seconds', 'max_patch_bytes']) if (!(Number.isInteger(spec[key]) && (spec[key] as number) > 0)) problems.push(`replay_spec.${key} must be a positive integer`);
  if (spec.artifact_size_bytes !== undefined && spec.artifact_size_bytes !== null && !Number.isInteger(spec.artifact_size_bytes)) problems.push('replay_spec.artifact_size_bytes must be an integer or null');
  if (!Array.isArray(spec.allowed_patch_paths) || !spec.allowed_patch_paths.every((p) => typeof p === 'string')) problems.push('replay_spec.allowed_patch_paths must be a list of strings');
  const env = spec.validator_benchmark_env ?? {};
  if (typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string')) problems.push('replay_spec.validator_benchmark_env must map names to strings');
  const rotation = job.heldout_rotation ?? null;
  if (rotation !== null && !isRotation(rotation)) problems.push('heldout_rotation must be {slot: integer, number: string} or null');
  if (problems.length > 0) throw new JobFileError(`${path} is not a saved validator job: ${problems.join('; ')}`);
  const nulls = Object.fromEntries([...NULLABLE_STRINGS, 'artifact_size_bytes', 'secondary_metric_direction'].map((key) => [key, spec[key] ?? null]));
  return {
    job_id: job.job_id as string,
    submission_id: job.submission_id as string,
    replay_spec: { ...spec, ...nulls, validator_benchmark_env: env } as unknown as ValidatorJobToReplay['replay_spec'],
    heldout_rotation: rotation as ValidatorJobToReplay['heldout_rotation'],
  };
}

function isRotation(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { slot, number } = value as Record<string, unknown>;
  return Number.isInteger(slot) && typeof number === 'string';
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JobFileError(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

import { readFileSync } from 'node:fs';
import { CliUsageError } from '../errors';

/**
 * BitSota's `submission.json` sidecar (DECISIONS §18): `summary` and `claimed_metrics`, optionally `base_ref`,
 * `proposed_idea`, `implemented_submission_id`, `artifact_uri`, `execution_log` and `notes`.
 */
export interface Sidecar {
  summary?: string;
  claimed_metrics?: Record<string, number>;
  base_ref?: string;
  proposed_idea?: string;
  implemented_submission_id?: string;
  artifact_uri?: string;
  execution_log?: string;
  /** Kept by BitSota's client for the miner; this coordinator's submissions have no such field, so it is not sent. */
  notes?: string;
}

const TEXT_FIELDS = ['summary', 'base_ref', 'proposed_idea', 'implemented_submission_id', 'artifact_uri', 'execution_log', 'notes'] as const;
export const SIDECAR_FIELDS: readonly string[] = [...TEXT_FIELDS, 'claimed_metrics'];

/** The sidecar at `path`, each known field checked; unknown fields are named in `ignored` (a newer client may add some). */
export function readSidecar(path: string): { sidecar: Sidecar; ignored: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read --sidecar ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new CliUsageError(`--sidecar ${path} is not JSON`);
  }
  return parseSidecar(document, path);
}

export function parseSidecar(document: unknown, path: string): { sidecar: Sidecar; ignored: string[] } {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new CliUsageError(`--sidecar ${path} must hold a JSON object`);
  const fields = document as Record<string, unknown>;
  const sidecar: Sidecar = {};
  for (const name of TEXT_FIELDS) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new CliUsageError(`--sidecar ${path}: ${name} must be a string`);
    sidecar[name] = value;
  }
  const metrics = fields['claimed_metrics'];
  if (metrics !== undefined && metrics !== null) {
    if (typeof metrics !== 'object' || Array.isArray(metrics)) throw new CliUsageError(`--sidecar ${path}: claimed_metrics must be an object of numbers`);
    for (const [name, value] of Object.entries(metrics)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new CliUsageError(`--sidecar ${path}: claimed_metrics.${name} must be a number`);
    }
    sidecar.claimed_metrics = metrics as Record<string, number>;
  }
  return { sidecar, ignored: Object.keys(fields).filter((name) => !SIDECAR_FIELDS.includes(name)) };
}

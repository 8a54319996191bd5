import { isRecord } from '@rcs/contracts';
import { load } from 'js-yaml';

/**
 * BitSota's agent-skills `problem.yaml` as a create-task request (DECISIONS §15): `higher_is_better` →
 * `metric_direction`, `timeout_seconds` → `time_budget_seconds`, one tie-breaker → the secondary metric. What has
 * no counterpart here is refused with its field named, never dropped silently. Their file names no repository:
 * the operator gives it (and the base ref) on the command line.
 */
export class ProblemImportError extends Error {
  override readonly name = 'ProblemImportError';
}

export interface ImportTarget {
  repository: string;
  baseRef: string;
}

type Json = Record<string, unknown>;

/** Fields copied as they are, with the type each must have. */
const COPIED: Record<string, 'string' | 'number' | 'strings'> = {
  slug: 'string',
  title: 'string',
  setup_command: 'string',
  benchmark_command: 'string',
  result_path: 'string',
  allowed_patch_paths: 'strings',
  max_patch_bytes: 'number',
};
/** Their submission types: our tasks take a patch, an artifact, or both, with no setting. */
const SUBMISSION_TYPES = new Set(['patch', 'artifact', 'patch_or_artifact', 'artifact_or_patch']);
const OBJECTIVE_FIELDS = new Set(['metric_name', 'higher_is_better', 'acceptance_floor', 'tie_breakers']);

function direction(higherIsBetter: unknown, field: string): 'maximize' | 'minimize' {
  if (typeof higherIsBetter !== 'boolean') throw new ProblemImportError(`${field} must be true or false`);
  return higherIsBetter ? 'maximize' : 'minimize';
}

/** The create-task body of a problem.yaml text. */
export function problemToCreateTask(text: string, target: ImportTarget): Json {
  let problem: unknown;
  try {
    problem = load(text);
  } catch (error) {
    throw new ProblemImportError(`the file is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(problem)) throw new ProblemImportError('the file is not a YAML mapping of problem fields');
  const body: Json = { repository: target.repository, base_ref: target.baseRef };
  for (const [field, value] of Object.entries(problem)) {
    const kind = COPIED[field];
    if (kind !== undefined) {
      const ok = kind === 'strings' ? Array.isArray(value) && value.every((item) => typeof item === 'string') : typeof value === kind || value === null;
      if (!ok) throw new ProblemImportError(`${field} must be ${kind === 'strings' ? 'a list of strings' : `a ${kind}`}`);
      body[field] = value;
    } else if (field === 'timeout_seconds') {
      if (!Number.isInteger(value)) throw new ProblemImportError('timeout_seconds must be an integer');
      body.time_budget_seconds = value;
    } else if (field === 'version') {
      // The problem's own revision: the task created from it is that revision; nothing to keep beside it.
      if (typeof value !== 'string' && typeof value !== 'number') throw new ProblemImportError('version must be a string or a number');
    } else if (field === 'submission_type') {
      if (typeof value !== 'string' || !SUBMISSION_TYPES.has(value)) throw new ProblemImportError(`submission_type "${String(value)}" has no counterpart (a task takes patches and artifacts)`);
    } else if (field === 'hardware') {
      body.hardware = hardwareOf(value);
    } else if (field === 'objective') {
      Object.assign(body, objectiveOf(value));
    } else {
      throw new ProblemImportError(`${field} has no counterpart in a task`);
    }
  }
  for (const required of ['slug', 'title', 'benchmark_command', 'allowed_patch_paths', 'time_budget_seconds', 'metric_name']) {
    if (body[required] === undefined) throw new ProblemImportError(`${required === 'time_budget_seconds' ? 'timeout_seconds' : required === 'metric_name' ? 'objective.metric_name' : required} is missing`);
  }
  return body;
}

function hardwareOf(value: unknown): Json | null {
  if (value === null) return null;
  if (!isRecord(value)) throw new ProblemImportError('hardware has no counterpart unless it is {gpu_count, gpu_memory_gb}');
  for (const key of Object.keys(value)) if (key !== 'gpu_count' && key !== 'gpu_memory_gb') throw new ProblemImportError(`hardware.${key} has no counterpart in a task`);
  return { gpu_count: value.gpu_count, gpu_memory_gb: value.gpu_memory_gb };
}

function objectiveOf(value: unknown): Json {
  if (!isRecord(value)) throw new ProblemImportError('objective must be a mapping');
  for (const key of Object.keys(value)) if (!OBJECTIVE_FIELDS.has(key)) throw new ProblemImportError(`objective.${key} has no counterpart in a task`);
  if (typeof value.metric_name !== 'string') throw new ProblemImportError('objective.metric_name must be a string');
  const out: Json = { metric_name: value.metric_name, metric_direction: direction(value.higher_is_better, 'objective.higher_is_better') };
  if (value.acceptance_floor !== undefined && value.acceptance_floor !== null) throw new ProblemImportError('objective.acceptance_floor has no counterpart in a task');
  const breakers = value.tie_breakers ?? [];
  if (!Array.isArray(breakers)) throw new ProblemImportError('objective.tie_breakers must be a list');
  if (breakers.length > 1) throw new ProblemImportError('objective.tie_breakers[1] has no counterpart (a task has one secondary metric)');
  if (breakers.length === 1) {
    const breaker: unknown = breakers[0];
    if (!isRecord(breaker) || typeof (breaker.metric_name ?? breaker.metric) !== 'string') {
      throw new ProblemImportError('objective.tie_breakers[0] must be {metric_name, higher_is_better}');
    }
    for (const key of Object.keys(breaker)) {
      if (!['metric_name', 'metric', 'higher_is_better'].includes(key)) throw new ProblemImportError(`objective.tie_breakers[0].${key} has no counterpart in a task`);
    }
    out.secondary_metric_name = breaker.metric_name ?? breaker.metric;
    out.secondary_metric_direction = direction(breaker.higher_is_better, 'objective.tie_breakers[0].higher_is_better');
  }
  return out;
}

/**
 * The `validator_benchmark_env` convention for coordinator-held shards (DECISIONS.md §6), on top of the
 * runner's (`<NAME>_URL`, optional `<NAME>_TOKEN`, the sandbox gets `<NAME>_PATH` and HELDOUT_MANIFEST):
 * - the task's env says `<NAME>_SHARD=coordinator` (any shard of the task) or `<NAME>_SHARD=coordinator:<shard name>`
 *   (the task's shards of that name); any other `_SHARD` value is an ordinary variable passed through as before;
 * - each lease picks one such shard for the job, and the job's scan answer carries, instead of `<NAME>_SHARD`,
 *   `<NAME>_URL` (the signed validator download route of that job) and `<NAME>_SHA256` (what the runner checks).
 * One coordinator `<NAME>_SHARD` key per task is honoured (the first by key order); the others are left out of the answer.
 */
export const SHARD_SUFFIX = '_SHARD';
/** `<NAME>_SHARD` value meaning "any of the task's coordinator-held shards"; `coordinator:<name>` narrows it to a name. */
export const COORDINATOR_SHARD = 'coordinator';

export interface ShardSelector {
  /** `<NAME>`: the runner's source name. */
  name: string;
  /** Only shards with this name; null for any of the task's shards. */
  shardName: string | null;
}

export interface ShardDelivery {
  url: string;
  sha256: string;
}

/** The shard name a coordinator selector narrows to (null: any), or undefined when the value is no selector. */
function selectorValue(value: string): string | null | undefined {
  const trimmed = value.trim();
  if (trimmed === COORDINATOR_SHARD) return null;
  if (!trimmed.startsWith(`${COORDINATOR_SHARD}:`)) return undefined;
  const name = trimmed.slice(COORDINATOR_SHARD.length + 1).trim();
  return name === '' ? null : name;
}

/** The `<NAME>_SHARD` keys whose value is a coordinator selector, in key order. */
function shardKeys(env: Record<string, string>): string[] {
  return Object.keys(env)
    .filter((key) => key.endsWith(SHARD_SUFFIX) && key.length > SHARD_SUFFIX.length && selectorValue(env[key]) !== undefined)
    .sort();
}

/** The task's shard selector, or null when its env names no coordinator shard. */
export function shardSelector(env: Record<string, string>): ShardSelector | null {
  const [key] = shardKeys(env);
  if (key === undefined) return null;
  return { name: key.slice(0, -SHARD_SUFFIX.length), shardName: selectorValue(env[key]) ?? null };
}

/** The path of a job's held-out download route. */
export function heldoutDownloadPath(jobId: string): string {
  return `/api/v1/validator/jobs/${jobId}/heldout`;
}

/**
 * A job's env as its validator receives it: the `_SHARD` keys replaced by the delivery of the job's shard
 * (none when no shard could be chosen), and any `<NAME>_URL`/`<NAME>_TOKEN` of that name dropped so the
 * coordinator's route is the only source.
 */
export function jobBenchmarkEnv(env: Record<string, string>, delivery: ShardDelivery | null): Record<string, string> {
  const selector = shardSelector(env);
  if (selector === null) return env;
  const dropped = new Set([...shardKeys(env), `${selector.name}_URL`, `${selector.name}_TOKEN`, `${selector.name}_SHA256`]);
  const answer: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (!dropped.has(key)) answer[key] = value;
  if (delivery !== null) {
    answer[`${selector.name}_URL`] = delivery.url;
    answer[`${selector.name}_SHA256`] = delivery.sha256;
  }
  return answer;
}

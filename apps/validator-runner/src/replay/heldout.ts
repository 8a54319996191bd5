import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HOST_ONLY_KEYS } from './bitsota-profile';
import { ReplayFailure } from './replay-failure';
import { DownloadError, DownloadRules, safeDownload, urlFileName } from './safe-download';

/**
 * The convention for `validator_benchmark_env` (validator-private, from the coordinator):
 * - `<NAME>_URL`: a held-out source, downloaded on the host before the benchmark into
 *   `<job>/heldout/<NAME>/<file name of the URL>`; the sandbox gets `<NAME>_PATH` with that path, never the URL.
 * - `<NAME>_TOKEN`: the credential of `<NAME>_URL`, sent only as `Authorization: Bearer <token>` on that
 *   download; never passed to the sandbox (a token without its URL is dropped).
 * - `<NAME>_SHA256`: the lowercase hex SHA-256 the download of `<NAME>_URL` must have, else the replay is an
 *   `error`; not passed to the sandbox (without its URL it is a plain variable).
 * - a `<NAME>_URL` on the coordinator's own origin (COORDINATOR_URL) is a coordinator-held shard (its signed
 *   route `GET /api/v1/validator/jobs/{job_id}/heldout`): fetched signed with the validator's key (BT-AUTH-V1)
 *   instead of a token, from an address the operator configured, so private addresses and `http://` are allowed.
 * - anything else: passed to the benchmark as a plain environment variable.
 * Keys that are not environment variable names are dropped. `HELDOUT_MANIFEST` points at
 * `<job>/heldout/manifest.json`: `{NAME: {env, path, bytes, sha256}}`.
 */
export interface HeldoutSource {
  name: string;
  url: string;
  token: string | null;
  /** The digest the download must have (`<NAME>_SHA256`); absent when not given. */
  sha256?: string;
}

/** The coordinator as a held-out source: its origin, and the validator's signature for a request to it. */
export interface CoordinatorSource {
  origin: string;
  /** BT-AUTH-V1 headers for a body-less request to `pathAndQuery` on the coordinator. */
  sign(method: 'GET', pathAndQuery: string): Record<string, string>;
}

export interface BenchmarkEnvPlan {
  sources: HeldoutSource[];
  plain: Record<string, string>;
  /** Keys neither passed nor used (tokens without a URL, invalid names, host-only sources and credentials), for the log. */
  dropped: string[];
  /** `<NAME>_SHARD` coordinator selectors the job arrived with: a shard the coordinator did not deliver (§6: the validator's side). */
  undelivered: string[];
}

export interface HeldoutEntry {
  env: string;
  path: string;
  bytes: number;
  sha256: string;
}

export type HeldoutManifest = Record<string, HeldoutEntry>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function planBenchmarkEnv(env: Record<string, string>): BenchmarkEnvPlan {
  const plan: BenchmarkEnvPlan = { sources: [], plain: {}, dropped: [], undelivered: [] };
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_NAME.test(key) || HOST_ONLY_KEYS.includes(key)) {
      plan.dropped.push(key);
    } else if (key.endsWith('_SHARD') && /^coordinator(:|$)/.test(value.trim())) {
      plan.undelivered.push(key);
    } else if (key.endsWith('_URL') && key.length > '_URL'.length) {
      const name = key.slice(0, -'_URL'.length);
      const source: HeldoutSource = { name, url: value, token: env[`${name}_TOKEN`] ?? null };
      const digest = env[`${name}_SHA256`];
      if (digest !== undefined) source.sha256 = digest.trim().toLowerCase();
      plan.sources.push(source);
    } else if (key.endsWith('_SHA256') && Object.hasOwn(env, `${key.slice(0, -'_SHA256'.length)}_URL`)) {
      // Read with its URL above; the sandbox has no use for it.
    } else if (key.endsWith('_TOKEN')) {
      if (!Object.hasOwn(env, `${key.slice(0, -'_TOKEN'.length)}_URL`)) plan.dropped.push(key);
    } else {
      plan.plain[key] = value;
    }
  }
  return plan;
}

export interface PrefetchOptions {
  /** `<job>/heldout`, bound read-only into the sandbox at the same path. */
  directory: string;
  rules: DownloadRules;
  maxBytes: number;
  signal: AbortSignal;
  /** Where coordinator-held shards come from; without it every URL is an external one. */
  coordinator?: CoordinatorSource;
  onDownloaded?: (name: string, entry: HeldoutEntry, durationMs: number) => void;
}

/** Downloads every source on the host and writes the manifest; any failure is an `error` (the validator's side). */
export async function prefetchHeldout(sources: HeldoutSource[], options: PrefetchOptions): Promise<HeldoutManifest> {
  const manifest: HeldoutManifest = {};
  for (const source of sources) {
    const directory = join(options.directory, source.name);
    await mkdir(directory, { recursive: true });
    const path = join(directory, urlFileName(source.url, 'data'));
    const coordinatorPath = coordinatorPathOf(source.url, options.coordinator);
    try {
      const result = await safeDownload({
        url: source.url,
        destination: path,
        maxBytes: options.maxBytes,
        headers: requestHeaders(source, coordinatorPath, options.coordinator),
        signal: options.signal,
        // The operator's own COORDINATOR_URL: reachable however they configured it.
        rules: coordinatorPath === null ? options.rules : { ...options.rules, allowInsecureHttp: true, allowPrivateAddresses: true },
      });
      if (source.sha256 !== undefined && result.sha256 !== source.sha256) {
        await rm(path, { force: true });
        throw ReplayFailure.error('A held-out source did not have the sha256 announced; it was not used.', `${source.name}: sha256 ${result.sha256}, not the ${source.sha256} announced`);
      }
      manifest[source.name] = { env: `${source.name}_PATH`, path, bytes: result.bytes, sha256: result.sha256 };
      options.onDownloaded?.(source.name, manifest[source.name], result.durationMs);
    } catch (error) {
      if (!(error instanceof DownloadError)) throw error;
      // The note is public: it names no private source (§6); the log says which.
      throw ReplayFailure.error(`A held-out source could not be prefetched: ${error.problem.detail}.`, `${source.name} could not be prefetched`);
    }
  }
  await writeFile(manifestPath(options.directory), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The path and query of a URL on the coordinator's origin, else null (an external source). */
function coordinatorPathOf(url: string, coordinator: CoordinatorSource | undefined): string | null {
  if (coordinator === undefined) return null;
  try {
    const parsed = new URL(url);
    return parsed.origin === coordinator.origin ? `${parsed.pathname}${parsed.search}` : null;
  } catch {
    return null;
  }
}

/** A coordinator shard is fetched signed (never with a token); an external one with its token, if any. */
function requestHeaders(source: HeldoutSource, coordinatorPath: string | null, coordinator: CoordinatorSource | undefined): Record<string, string> | undefined {
  if (coordinatorPath !== null && coordinator !== undefined) return coordinator.sign('GET', coordinatorPath);
  return source.token === null ? undefined : { authorization: `Bearer ${source.token}` };
}

export function manifestPath(directory: string): string {
  return join(directory, 'manifest.json');
}

/** What the sandbox sees of the private env: plain values, local paths and the manifest; no URL, no token. */
export function heldoutSandboxEnv(plan: BenchmarkEnvPlan, manifest: HeldoutManifest, directory: string): Record<string, string> {
  const env: Record<string, string> = { ...plan.plain };
  for (const entry of Object.values(manifest)) env[entry.env] = entry.path;
  if (plan.sources.length > 0) env.HELDOUT_MANIFEST = manifestPath(directory);
  return env;
}

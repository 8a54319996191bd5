import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReplayFailure } from './replay-failure';
import { DownloadError, DownloadRules, safeDownload, urlFileName } from './safe-download';

/**
 * The convention for `validator_benchmark_env` (validator-private, from the coordinator):
 * - `<NAME>_URL`: a held-out source, downloaded on the host before the benchmark into
 *   `<job>/heldout/<NAME>/<file name of the URL>`; the sandbox gets `<NAME>_PATH` with that path, never the URL.
 * - `<NAME>_TOKEN`: the credential of `<NAME>_URL`, sent only as `Authorization: Bearer <token>` on that
 *   download; never passed to the sandbox (a token without its URL is dropped).
 * - anything else: passed to the benchmark as a plain environment variable.
 * Keys that are not environment variable names are dropped. `HELDOUT_MANIFEST` points at
 * `<job>/heldout/manifest.json`: `{NAME: {env, path, bytes, sha256}}`.
 */
export interface HeldoutSource {
  name: string;
  url: string;
  token: string | null;
}

export interface BenchmarkEnvPlan {
  sources: HeldoutSource[];
  plain: Record<string, string>;
  /** Keys neither passed nor used (tokens without a URL, invalid names), for the log. */
  dropped: string[];
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
  const plan: BenchmarkEnvPlan = { sources: [], plain: {}, dropped: [] };
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_NAME.test(key)) {
      plan.dropped.push(key);
    } else if (key.endsWith('_URL') && key.length > '_URL'.length) {
      const name = key.slice(0, -'_URL'.length);
      plan.sources.push({ name, url: value, token: env[`${name}_TOKEN`] ?? null });
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
  onDownloaded?: (name: string, entry: HeldoutEntry, durationMs: number) => void;
}

/** Downloads every source on the host and writes the manifest; any failure is an `error` (the validator's side). */
export async function prefetchHeldout(sources: HeldoutSource[], options: PrefetchOptions): Promise<HeldoutManifest> {
  const manifest: HeldoutManifest = {};
  for (const source of sources) {
    const directory = join(options.directory, source.name);
    await mkdir(directory, { recursive: true });
    const path = join(directory, urlFileName(source.url, 'data'));
    try {
      const result = await safeDownload({
        url: source.url,
        destination: path,
        maxBytes: options.maxBytes,
        headers: source.token === null ? undefined : { authorization: `Bearer ${source.token}` },
        signal: options.signal,
        rules: options.rules,
      });
      manifest[source.name] = { env: `${source.name}_PATH`, path, bytes: result.bytes, sha256: result.sha256 };
      options.onDownloaded?.(source.name, manifest[source.name], result.durationMs);
    } catch (error) {
      if (!(error instanceof DownloadError)) throw error;
      throw ReplayFailure.error(`Held-out source ${source.name} could not be prefetched: ${error.problem.detail}.`);
    }
  }
  await writeFile(manifestPath(options.directory), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
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

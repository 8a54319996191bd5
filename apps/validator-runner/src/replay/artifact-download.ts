import { join } from 'node:path';
import { ReplayFailure } from './replay-failure';
import { DownloadError, DownloadResult, DownloadRules, safeDownload, urlFileName } from './safe-download';

export interface ArtifactSpec {
  uri: string;
  sha256: string | null;
  sizeBytes: number | null;
}

export interface ArtifactOptions {
  /** Host directory the artifact lands in (bound read-only into the sandbox at the same path). */
  directory: string;
  rules: Omit<DownloadRules, 'allowFile'>;
  /** This validator's own ceiling, whatever the submission declares. */
  maxBytes: number;
  signal: AbortSignal;
}

export interface DownloadedArtifact extends DownloadResult {
  /** Where the benchmark finds it: `ARTIFACT_PATH`. */
  path: string;
}

/**
 * Downloads a submission's artifact and checks it against its declared size and SHA-256. A bad URL,
 * host, redirect, status, size or hash rejects the submission; a network failure or the deadline is an
 * `error` (the validator could not tell).
 */
export async function downloadArtifact(spec: ArtifactSpec, options: ArtifactOptions): Promise<DownloadedArtifact> {
  if (spec.sha256 === null || spec.sizeBytes === null) {
    throw ReplayFailure.rejected('The artifact has no declared SHA-256 and size to check it against.');
  }
  if (spec.sizeBytes > options.maxBytes) {
    throw ReplayFailure.error(`The artifact declares ${spec.sizeBytes} bytes; this validator downloads at most ${options.maxBytes}.`);
  }
  const path = join(options.directory, urlFileName(spec.uri, 'artifact'));
  let result: DownloadResult;
  try {
    result = await safeDownload({
      url: spec.uri,
      destination: path,
      maxBytes: spec.sizeBytes,
      signal: options.signal,
      rules: { ...options.rules, allowFile: false },
    });
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    const note = `Artifact download refused or failed: ${error.problem.detail}.`;
    throw error.problem.blame === 'source' ? ReplayFailure.rejected(note) : ReplayFailure.error(note);
  }
  if (result.bytes !== spec.sizeBytes) {
    throw ReplayFailure.rejected(`The artifact is ${result.bytes} bytes; the submission declares ${spec.sizeBytes}.`);
  }
  if (result.sha256 !== spec.sha256.toLowerCase()) {
    throw ReplayFailure.rejected(`The artifact's SHA-256 is ${result.sha256}; the submission declares ${spec.sha256.toLowerCase()}.`);
  }
  return { ...result, path };
}

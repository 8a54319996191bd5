import type { HttpBodyLimits } from '@rcs/client';

const MIB = 1024 * 1024;

/**
 * What `rcs` reads of a service's answer (issue 35: an endless body once took it to 6 GB). Each kind of answer has
 * its own bound, far above what an honest service sends for it: a JSON document (a list of at most 1000 tasks or
 * submissions), a Markdown onboarding text, exact bytes, an error body, one event of an event stream.
 */
export const CLI_BODY_BYTES = {
  documentBytes: 32 * MIB,
  textBytes: 4 * MIB,
  bytesBytes: 64 * MIB,
  errorBytes: 1 * MIB,
  eventBytes: 1 * MIB,
} as const;

/** Whole request (headers and body): long enough for a planner run, short enough that a dead service is reported. */
const DEFAULT_TIMEOUT_SECONDS = 60;
/** The longest silence while a body comes. */
const DEFAULT_IDLE_SECONDS = 15;

export interface CliHttpSettings {
  timeoutMs: number;
  limits: HttpBodyLimits;
}

/**
 * The CLI's HTTP bounds: `RCS_HTTP_TIMEOUT_SECONDS` (whole request, default 60) and `RCS_HTTP_IDLE_SECONDS` (silence
 * while a body comes, default 15); a value that is not a positive number keeps the default.
 */
export function cliHttpSettings(env: NodeJS.ProcessEnv): CliHttpSettings {
  const timeoutSeconds = positiveSeconds(env['RCS_HTTP_TIMEOUT_SECONDS'], DEFAULT_TIMEOUT_SECONDS);
  const idleSeconds = positiveSeconds(env['RCS_HTTP_IDLE_SECONDS'], DEFAULT_IDLE_SECONDS);
  // An event stream's own bound (eventBytes) is read where the stream is.
  const { documentBytes, textBytes, bytesBytes, errorBytes } = CLI_BODY_BYTES;
  return { timeoutMs: timeoutSeconds * 1000, limits: { documentBytes, textBytes, bytesBytes, errorBytes, idleTimeoutMs: idleSeconds * 1000 } };
}

function positiveSeconds(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && value > 0 ? value : fallback;
}

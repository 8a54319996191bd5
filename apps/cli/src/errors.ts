/** Exit codes of `rcs` (issue 24): what a script or an agent branches on. */
export const EXIT = {
  ok: 0,
  /** The server (or the contract, or the server's own rules checked here first) refused. */
  refused: 1,
  /** Bad arguments, missing identity or configuration, unreadable local files. */
  usage: 2,
  /** The coordinator, the pool or the chain did not answer. */
  unreachable: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The command line or the local configuration cannot be used: exit 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** Refused before anything was sent, by the rules the server would apply (or a verdict that is not a success): exit 1. */
export class CliRefusedError extends Error {
  constructor(
    message: string,
    /** The document to print under `--json` (the server's own JSON when there is one). */
    readonly json: string | null = null,
  ) {
    super(message);
    this.name = 'CliRefusedError';
  }
}

/** A local service the command needs (git, the chain) did not answer: exit 3. */
export class CliUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUnreachableError';
  }
}

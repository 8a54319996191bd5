/** The service answered with an error status; `code` is `detail.error` of a DECISIONS §1 body when there is one. */
export class ServiceAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly detail: string,
    readonly path: string,
    /** The answer's body as sent (a DECISIONS §1 error document when the service wrote one). */
    readonly body = '',
  ) {
    super(`${path} answered ${status}${code ? ` ${code}` : ''}: ${detail}`);
    this.name = 'ServiceAnswerError';
  }
}

/** No answer: connection refused or reset, DNS failure, or the request timed out. */
export class ServiceUnreachableError extends Error {
  constructor(
    readonly reason: string,
    readonly path: string,
  ) {
    super(`${path}: service unreachable: ${reason}`);
    this.name = 'ServiceUnreachableError';
  }
}

/** A 2xx answer that is not the document the contract describes (not JSON, or failing its DTO's rules). */
export class InvalidResponseError extends Error {
  constructor(
    readonly path: string,
    readonly problems: string[],
  ) {
    super(`${path} answered a document that breaks the contract: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`);
    this.name = 'InvalidResponseError';
  }
}

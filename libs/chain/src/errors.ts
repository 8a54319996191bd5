/** The chain could not answer (unreachable, timed out, or not the chain we expect); callers fail closed. */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainUnavailableError';
  }
}

/** The chain settings in the environment are unusable; `problems` lists every one found. */
export class ChainConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid chain configuration: ${problems.join('; ')}`);
    this.name = 'ChainConfigError';
  }
}

/** A string that is not an SS58 address was given where an account is expected. */
export class InvalidAddressError extends Error {
  constructor(readonly address: string) {
    super(`not an SS58 address: ${JSON.stringify(address)}`);
    this.name = 'InvalidAddressError';
  }
}

/** The message of an Error, or of an error-like event (WebSocket errors are `ErrorEvent`s), else its text. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message: unknown = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message !== '' ? message : String(error);
}

/** Why a submitted extrinsic did not succeed. */
export type ExtrinsicFailureKind = 'dispatch_error' | 'invalid' | 'dropped' | 'timeout';

/** A submitted extrinsic failed (`ExtrinsicFailed`, invalid, dropped, or not included in time): never a success. */
export class ExtrinsicFailedError extends Error {
  constructor(
    readonly kind: ExtrinsicFailureKind,
    /** e.g. `SubtensorModule.SettingWeightsTooFast`, or the pool's reason. */
    readonly reason: string,
    readonly txHash: string | null = null,
  ) {
    super(`extrinsic ${kind}: ${reason}`);
    this.name = 'ExtrinsicFailedError';
  }
}

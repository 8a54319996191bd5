import { VerificationStatus } from '@rcs/contracts';

export type FailureStatus = VerificationStatus.Rejected | VerificationStatus.Error;

/**
 * Ends a replay early with its verdict: `rejected` when the submission failed a check or the benchmark
 * said so, `error` when the validator could not finish (infrastructure, time budget).
 */
export class ReplayFailure extends Error {
  constructor(
    readonly status: FailureStatus,
    readonly note: string,
    /** What only the admin replay log may say (a private source's name); the note stays public. */
    readonly logDetail: string | null = null,
  ) {
    super(note);
    this.name = 'ReplayFailure';
  }

  static rejected(note: string): ReplayFailure {
    return new ReplayFailure(VerificationStatus.Rejected, note);
  }

  static error(note: string, logDetail: string | null = null): ReplayFailure {
    return new ReplayFailure(VerificationStatus.Error, note, logDetail);
  }
}

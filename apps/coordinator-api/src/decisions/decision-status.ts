import { SubmissionStatus, VerificationStatus } from '@rcs/contracts';

/** A submission's status and the verification status that says the same, written once for both directions. */
const VERIFICATION_STATUS: Record<SubmissionStatus, VerificationStatus> = {
  [SubmissionStatus.PendingVerification]: VerificationStatus.Pending,
  [SubmissionStatus.Accepted]: VerificationStatus.Accepted,
  [SubmissionStatus.Rejected]: VerificationStatus.Rejected,
  [SubmissionStatus.Error]: VerificationStatus.Error,
};

const SUBMISSION_STATUS = new Map(Object.entries(VERIFICATION_STATUS).map(([submission, verification]) => [verification, submission as SubmissionStatus]));

/** The verification status a submission's status reads as (`pending_verification` is `pending`). */
export function verificationStatusOf(status: SubmissionStatus): VerificationStatus {
  return VERIFICATION_STATUS[status];
}

/** The submission status a verification status decides (`pending` is `pending_verification`: nothing decided). */
export function submissionStatusOf(status: VerificationStatus): SubmissionStatus {
  return SUBMISSION_STATUS.get(status) as SubmissionStatus;
}

import { ArtifactDescriptorDto, SubmissionDto, TaskIdeaDto } from '@rcs/contracts';
import { SubmissionEntity } from './entities/submission.entity';

export function toSubmissionDto(submission: SubmissionEntity): SubmissionDto {
  return {
    id: submission.id,
    task_id: submission.taskId,
    claim_id: submission.claimId,
    miner_hotkey: submission.minerHotkey,
    base_ref: submission.baseRef,
    patch: submission.patch,
    summary: submission.summary,
    proposed_idea: submission.proposedIdea,
    implemented_submission_id: submission.implementedSubmissionId,
    artifact_uri: submission.artifactUri,
    artifact_sha256: submission.artifactSha256,
    artifact_size_bytes: submission.artifactSizeBytes,
    execution_log: submission.executionLog,
    claimed_metrics: submission.claimedMetrics,
    status: submission.status,
    release: submission.release,
    created_at: submission.createdAt.toISOString(),
    updated_at: submission.updatedAt.toISOString(),
  };
}

/** The artifact descriptor, or null when the submission carries no artifact. */
export function toArtifactDescriptorDto(submission: SubmissionEntity): ArtifactDescriptorDto | null {
  const { artifactUri, artifactSha256, artifactSizeBytes } = submission;
  if (artifactUri === null || artifactSha256 === null || artifactSizeBytes === null) return null;
  return {
    submission_id: submission.id,
    artifact_uri: artifactUri,
    artifact_sha256: artifactSha256,
    artifact_size_bytes: artifactSizeBytes,
  };
}

/** A submission that proposed an idea, as `GET /tasks/{task_id}/ideas` lists it. */
export function toTaskIdeaDto(submission: SubmissionEntity): TaskIdeaDto {
  return {
    submission_id: submission.id,
    task_id: submission.taskId,
    miner_hotkey: submission.minerHotkey,
    proposed_idea: submission.proposedIdea ?? '',
    status: submission.status,
    created_at: submission.createdAt.toISOString(),
  };
}

import { ReplaySpecDto, SubmissionDetailDto, ValidatorJobDto } from '@rcs/contracts';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { toSubmissionDto } from '../submissions/submission.mapper';
import { TaskEntity } from '../tasks/entities/task.entity';
import { toTaskDto } from '../tasks/task.mapper';
import { ValidatorJobEntity } from './entities/validator-job.entity';

/** What a validator replays (DECISIONS.md §6, compat): the only response that carries validator_benchmark_env. */
export function toReplaySpecDto(task: TaskEntity, submission: SubmissionEntity, benchmarkEnv: Record<string, string> = task.validatorBenchmarkEnv): ReplaySpecDto {
  return {
    repository: task.repository,
    base_ref: task.baseRef,
    base_commit_sha: task.baseCommitSha,
    setup_command: task.setupCommand,
    benchmark_command: task.benchmarkCommand,
    result_path: task.resultPath,
    allowed_patch_paths: task.allowedPatchPaths,
    metric_name: task.metricName,
    metric_direction: task.metricDirection,
    ranking_mode: task.rankingMode,
    secondary_metric_name: task.secondaryMetricName,
    secondary_metric_direction: task.secondaryMetricDirection,
    validator_benchmark_env: benchmarkEnv,
    time_budget_seconds: task.timeBudgetSeconds,
    max_patch_bytes: task.maxPatchBytes,
    patch: submission.patch,
    artifact_uri: submission.artifactUri,
    artifact_sha256: submission.artifactSha256,
    artifact_size_bytes: submission.artifactSizeBytes,
  };
}

/**
 * A leased job as the validator receives it; `leaseExpiresAt` and the rotation pair are set on every leased job. `benchmarkEnv` is
 * the task's env as this job's lessee receives it (its held-out shard filled in, heldout-env.ts).
 */
export function toValidatorJobDto(
  job: ValidatorJobEntity & { leaseExpiresAt: Date; heldoutRotationSlot: number; heldoutRotationNumber: string },
  task: TaskEntity,
  submission: SubmissionEntity,
  detail: SubmissionDetailDto,
  benchmarkEnv: Record<string, string>,
): ValidatorJobDto {
  return {
    job_id: job.id,
    submission_id: submission.id,
    reason: job.reason,
    submission: toSubmissionDto(submission),
    task: toTaskDto(task),
    replay_spec: toReplaySpecDto(task, submission, benchmarkEnv),
    lease_expires_at: job.leaseExpiresAt.toISOString(),
    detail,
    heldout_rotation: { slot: job.heldoutRotationSlot, number: job.heldoutRotationNumber },
  };
}

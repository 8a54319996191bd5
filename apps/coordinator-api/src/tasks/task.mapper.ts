import { HeldoutBudgetViewDto, TaskDto, TaskExposureDto, TaskState } from '@rcs/contracts';
import { TaskEntity } from './entities/task.entity';

/** Paths of a task's public documents, relative to the service's base URL. */
export function taskPaths(taskId: string): { task: string; onboard: string; claim: string; best: string } {
  const task = `/api/v1/tasks/${taskId}`;
  return { task, onboard: `${task}/onboard.md`, claim: `${task}/claim`, best: `${task}/best` };
}

/** The task's budget with its defaults resolved (DECISIONS §17); null when it has none. */
export function toHeldoutBudgetView(task: TaskEntity): HeldoutBudgetViewDto | null {
  const budget = task.heldoutBudget;
  if (budget === null) return null;
  return { enabled: budget.enabled, step: budget.step ?? task.metricResolution, bits: budget.bits, delta: budget.delta };
}

/** The public task: every spec field, never a validator-private one (validator_benchmark_env); `exposure` when the caller read it. */
export function toTaskDto(task: TaskEntity, exposure: TaskExposureDto | null = null): TaskDto {
  const paths = taskPaths(task.id);
  return {
    id: task.id,
    slug: task.slug,
    title: task.title,
    brief: task.brief,
    onboard_path: paths.onboard,
    claim_path: paths.claim,
    best_result_path: paths.best,
    repository: task.repository,
    base_ref: task.baseRef,
    setup_command: task.setupCommand,
    benchmark_command: task.benchmarkCommand,
    result_path: task.resultPath,
    allowed_patch_paths: task.allowedPatchPaths,
    max_patch_bytes: task.maxPatchBytes,
    metric_name: task.metricName,
    metric_direction: task.metricDirection,
    ranking_mode: task.rankingMode,
    secondary_metric_name: task.secondaryMetricName,
    secondary_metric_direction: task.secondaryMetricDirection,
    metric_resolution: task.metricResolution,
    metric_resolution_mode: task.metricResolutionMode,
    reference_model_id: task.referenceModelId,
    reference_parameter_count: task.referenceParameterCount,
    model_family: task.modelFamily,
    slug_compatibility_note: task.slugCompatibilityNote,
    hardware:
      task.hardwareGpuCount === null || task.hardwareGpuMemoryGb === null
        ? null
        : { gpu_count: task.hardwareGpuCount, gpu_memory_gb: task.hardwareGpuMemoryGb },
    competition_mode: task.competitionMode,
    min_peer_evaluations: task.minPeerEvaluations,
    time_budget_seconds: task.timeBudgetSeconds,
    heldout_rotation_seconds: task.heldoutRotationSeconds,
    heldout_budget: toHeldoutBudgetView(task),
    exposure,
    task_state: task.taskState,
    is_active: task.taskState === TaskState.Live,
    created_at: task.createdAt.toISOString(),
  };
}

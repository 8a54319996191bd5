export * from './errors/error-code';
export * from './errors/api-error';
export * from './errors/refusable';
export * from './errors/error-status';
export * from './errors/api-errors.decorator';
export * from './errors/api-validation-failure.decorator';
export * from './errors/error-response.dto';

export * from './enums';
export * from './common/validators';
export * from './common/transforms';
export * from './common/ids';
export * from './ranking/best-result-rule';

export * from './tasks/task-hardware.dto';
export * from './tasks/heldout-budget.dto';
export * from './tasks/create-task.dto';
export * from './tasks/task.dto';
export * from './tasks/task-state-update.dto';
export * from './tasks/task-query.dto';

export * from './claims/create-task-claim.dto';
export * from './claims/create-work-item-claim.dto';
export * from './claims/claim.dto';
export * from './claims/claim-query.dto';

export * from './work-items/work-item.dto';
export * from './work-items/work-item-query.dto';

export * from './submissions/create-submission.dto';
export * from './submissions/submission.dto';
export * from './submissions/submission-query.dto';
export * from './submissions/task-idea.dto';
export * from './submissions/submission-detail.dto';
export * from './submissions/artifact-descriptor.dto';

export * from './validator-jobs/verify.dto';
export * from './validator-jobs/validator-job-result.dto';
export * from './validator-jobs/heldout-rotation.dto';
export * from './validator-jobs/validator-capabilities.dto';
export * from './validator-jobs/validator-job-claim.dto';
export * from './validator-jobs/scan-request.dto';
export * from './validator-jobs/replay-spec.dto';
export * from './validator-jobs/validator-job.dto';
export * from './validator-jobs/scan-response.dto';
export * from './validator-jobs/verification-summary.dto';
export * from './validator-jobs/verification-query.dto';
export * from './heldout/heldout-shard.dto';

export * from './peer-evaluation/peer-evaluate.dto';
export * from './peer-evaluation/peer-evaluation.dto';
export * from './peer-evaluation/peer-evaluation-query.dto';
export * from './peer-evaluation/peer-consensus.dto';

export * from './best-results/best-result.dto';
export * from './best-results/best-result-change.dto';
export * from './best-results/best-result-history-query.dto';
export * from './idea-rewards/idea-reward.dto';
export * from './idea-rewards/idea-reward-query.dto';
export * from './planner/planner-run-response.dto';

export * from './rewards/pool-policy.dto';
export * from './rewards/competition-policy.dto';
export * from './rewards/validator-weights-policy.dto';
export * from './rewards/reward-policy.dto';
export * from './rewards/reward-policy-version.dto';
export * from './rewards/reward-snapshot.dto';

export * from './dashboard/dashboard.dto';
export * from './miners/miner-results.dto';

export * from './status/participation-disclaimer';
export * from './status/disclaimer.dto';
export * from './status/onchain-status.dto';
export * from './status/health.dto';
export * from './status/weight-setter-status.dto';

export * from './queues/queues';
export * from './common/page-query.dto';
export * from './pool';
export * from './events/sse-frames';
export { MAX_PER_ITEM } from './common/request-fields';

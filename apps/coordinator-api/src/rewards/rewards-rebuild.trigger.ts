import { Injectable } from '@nestjs/common';
import { OnDomainEvent, SubmissionDecided, TaskStateChanged } from '../events/domain-events';
import { RewardsRebuildService } from './rewards-rebuild.service';

/**
 * Asks for a snapshot rebuild after every committed change the snapshot is built from: a decision,
 * a task created or moved, a new policy. Never waits (`requestSoon`); a request lost with Redis is
 * caught up by the periodic snapshot check, which reads the `reward_snapshot_changes` outbox.
 */
@Injectable()
export class RewardsRebuildTrigger {
  constructor(private readonly rebuild: RewardsRebuildService) {}

  @OnDomainEvent('submission.decided')
  afterDecision(event: SubmissionDecided): void {
    this.rebuild.requestSoon('decision', event.taskId);
  }

  // A new live task is a new competition of the reward snapshot; a moved one changes who competes.
  @OnDomainEvent('task.state_changed')
  afterTaskState(event: TaskStateChanged): void {
    this.rebuild.requestSoon(event.previousState === null ? 'task_created' : 'task_state', event.taskId);
  }

  @OnDomainEvent('policy.changed')
  afterPolicyChange(): void {
    this.rebuild.requestSoon('policy_update', null);
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events';
import { RewardsRebuildService } from './rewards-rebuild.service';

/**
 * Asks for a snapshot rebuild after every committed change the snapshot is built from: a decision,
 * a task created or moved, a new policy. Never waits (`requestSoon`); a request lost with Redis is
 * caught up by the periodic snapshot check, which reads the `reward_snapshot_changes` outbox.
 */
@Injectable()
export class RewardsRebuildTrigger implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly rebuild: RewardsRebuildService,
  ) {}

  onModuleInit(): void {
    this.events.on('submission.decided', (event) => this.rebuild.requestSoon('decision', event.taskId));
    // A new live task is a new competition of the reward snapshot; a moved one changes who competes.
    this.events.on('task.state_changed', (event) => this.rebuild.requestSoon(event.previousState === null ? 'task_created' : 'task_state', event.taskId));
    this.events.on('policy.changed', () => this.rebuild.requestSoon('policy_update', null));
  }
}

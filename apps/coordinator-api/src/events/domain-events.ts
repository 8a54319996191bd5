import { Injectable } from '@nestjs/common';
import { SubmissionStatus, TaskState } from '@rcs/contracts';
import { EventBus, onEventOf } from '@rcs/events';
import type { ExposureChanged } from '../exposure/exposure.service';

export type { ExposureChanged };

/** A submission left `pending_verification` (validator result, manual verify, lease exhaustion or peer consensus). */
export interface SubmissionDecided {
  submissionId: string;
  taskId: string;
  taskSlug: string;
  minerHotkey: string;
  status: SubmissionStatus;
  metricName: string;
  /** The verified value of the task metric (accepted decisions only). */
  verifiedMetricValue: number | null;
  decidedAt: Date;
}

/** A submission was stored, `pending_verification`. */
export interface SubmissionCreated {
  submissionId: string;
  taskId: string;
}

/** A lease sweep ended: expired leases returned to the pool, and jobs out of attempts whose submission was ended as `error`. */
export interface LeasesExpired {
  returned: number;
  exhausted: number;
}

/** An accepted result became its task's best. */
export interface BestChanged {
  taskId: string;
  taskSlug: string;
  submissionId: string;
  minerHotkey: string;
  metricName: string;
  metricValue: number;
  secondaryMetricValue: number | null;
  previousSubmissionId: string | null;
  previousMetricValue: number | null;
  changedAt: Date;
}

/** A reward snapshot was built and stored. */
export interface SnapshotRebuilt {
  generatedAt: string;
  bytes: number;
}

/** A task was created (`previousState` null) or moved by an admin. */
export interface TaskStateChanged {
  taskId: string;
  previousState: TaskState | null;
  state: TaskState;
}

/** A new reward policy version is in force. */
export interface PolicyChanged {
  version: number;
}

/** Every domain event, by name; an event is emitted only after the transaction that made it has committed. */
export interface DomainEventMap {
  'submission.created': SubmissionCreated;
  'submission.decided': SubmissionDecided;
  'best.changed': BestChanged;
  'task.state_changed': TaskStateChanged;
  'policy.changed': PolicyChanged;
  'snapshot.rebuilt': SnapshotRebuilt;
  'leases.expired': LeasesExpired;
  /** A budgeted task's held-out exposure changed: a release, a rotation to the next shard, or no shard left (DECISIONS §17). */
  'exposure.changed': ExposureChanged;
}

/**
 * The coordinator's in-process event bus (`@rcs/events`). Handlers are `@OnDomainEvent` methods; they
 * run synchronously and must not wait on anything (a response never waits on a queue); one that
 * throws is logged and never reaches the emitter, whose change has already committed.
 */
@Injectable()
export class DomainEvents extends EventBus<DomainEventMap> {}

/** Marks a provider method as a handler of one coordinator domain event, typed by `DomainEventMap`. */
export const OnDomainEvent = onEventOf<DomainEventMap>();

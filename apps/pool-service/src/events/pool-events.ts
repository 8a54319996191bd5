import { Injectable } from '@nestjs/common';
import { EventBus, onEventOf } from '@rcs/events';

/** An epoch was stored (`pending`) or published on chain (`published`), as committed. */
export interface EpochPublished {
  epoch: number;
  root: string;
  leafCount: number;
  totalAmount: string;
  publication: 'pending' | 'published';
  publishedBlock: number | null;
}

/** A validator verified a pending result. */
export interface ResultVerified {
  resultId: number;
  taskType: string;
  minerHotkey: string | null;
  score: number;
  verifiedAt: Date;
}

/** A verified result raised its task type's SOTA threshold. */
export interface SotaChanged {
  taskType: string;
  sotaThreshold: number;
  resultId: number;
}

/** A simulated claim (`CLAIM_SIMULATION`) was paid by the contract and recorded. */
export interface ClaimSimulated {
  epoch: number;
  hotkey: string;
  paidRao: bigint;
}

/** Every pool domain event, by name; an event is emitted only after the transaction that made it has committed. */
export interface PoolEventMap {
  'epoch.published': EpochPublished;
  'result.verified': ResultVerified;
  'sota.changed': SotaChanged;
  'claim.simulated': ClaimSimulated;
}

/**
 * The pool's in-process event bus (`@rcs/events`). Handlers are `@OnPoolEvent` methods (the public
 * stream, the counters); they run synchronously and must not wait; one that throws is logged and
 * never reaches the emitter, whose change has already committed.
 */
@Injectable()
export class PoolEvents extends EventBus<PoolEventMap> {}

/** Marks a provider method as a handler of one pool domain event, typed by `PoolEventMap`. */
export const OnPoolEvent = onEventOf<PoolEventMap>();

import { Inject, Injectable } from '@nestjs/common';
import { u8aToHex } from '@polkadot/util';
import type { Logger } from 'pino';
import { WeightsRevealOutcome, type WeightsRevealDto } from '@rcs/contracts';
import { PassStatusStore, type PendingCommit } from './pass-status.store';
import { SetterIdentity } from './setter-identity';
import { WEIGHTS_LOGGER } from './tokens';

/**
 * Confirms the reveal of the pending commit (DECISIONS §12): the chain checks nothing when it takes a
 * commit and drops one it cannot apply without an event, so the setter looks. From the expected reveal
 * block on: the commit gone from `TimelockedWeightCommits` and `Weights` holding the committed vector →
 * `revealed`; gone with other weights, or still held after its reveal epoch → `reveal_missed` (error
 * log, `weights_commits_total{outcome="reveal_missed"}`, `/status`). Never resubmits anything.
 */
@Injectable()
export class RevealWatchService {
  constructor(
    @Inject(SetterIdentity) private readonly setter: SetterIdentity,
    @Inject(WEIGHTS_LOGGER) private readonly logger: Logger,
    @Inject(PassStatusStore) private readonly status: PassStatusStore,
  ) {}

  /** Looks at the pending commit once; returns how its reveal ended, or null while there is none or it is not due. */
  async check(): Promise<WeightsRevealDto | null> {
    const pending = await this.status.pendingCommit();
    if (!pending) return null;
    const chain = this.setter.chain;
    const block = await chain.latestBlock();
    if (block < pending.reveal_block) return null;
    const [held, onChain, lastUpdate] = await Promise.all([
      this.setter.heldCommits(pending.netuid),
      chain.uidWeights(pending.netuid, pending.uid),
      chain.lastUpdate(pending.netuid),
    ]);
    const stillHeld = held.some((c) => c.commitBlock === pending.block && u8aToHex(c.commit) === pending.ciphertext);
    let outcome: WeightsRevealOutcome;
    let seenAt = block;
    let why: string | null = null;
    if (!stillHeld && sameWeights(onChain, pending)) {
      outcome = WeightsRevealOutcome.Revealed;
      seenAt = lastUpdate[pending.uid] ?? block;
    } else if (!stillHeld) {
      outcome = WeightsRevealOutcome.RevealMissed;
      why = 'the chain no longer holds the commit and its weights are not the committed vector: it could not open or apply it (wrong round, hotkey, or a weight rule at reveal)';
    } else if (block > pending.reveal_deadline_block) {
      outcome = WeightsRevealOutcome.RevealMissed;
      why = `the commit is still unrevealed after its reveal epoch ended at block ${pending.reveal_deadline_block}: the chain had no pulse of round ${pending.reveal_round} in time`;
    } else {
      return null;
    }
    const reveal: WeightsRevealDto = { interval: pending.interval, outcome, block: seenAt, weights: pending.weights };
    if (!(await this.status.settle(pending, reveal))) return null; // another check settled it first
    const fields = { interval: pending.interval, commit_block: pending.block, tx_hash: pending.tx_hash, reveal_round: pending.reveal_round, block: seenAt, netuid: this.setter.netuid };
    if (outcome === WeightsRevealOutcome.Revealed) this.logger.info({ ...fields, weights: pending.weights }, 'weights revealed');
    else this.logger.error({ ...fields, reason: why }, 'weights reveal_missed: the committed weights never reached the chain; the next pass commits again');
    return reveal;
  }
}

/** The chain's `Weights` row equals the committed vector (both uid-ascending, zeros dropped). */
function sameWeights(onChain: [number, number][], pending: PendingCommit): boolean {
  const stored = onChain.filter(([, value]) => value > 0).sort(([a], [b]) => a - b);
  return stored.length === pending.weights.length && stored.every(([uid, value], i) => pending.weights[i].uid === uid && pending.weights[i].value === value);
}

import type { DrandBeaconConfig, WeightsRules } from '../ports/subtensor.port';
import {
  legacyCommitEpoch,
  legacyEpochStartBlock,
  legacyRevealSchedule,
  REVEAL_BLOCK_OFFSET,
  statefulEpochIndexAt,
  statefulEpochStartBlock,
  statefulRevealSchedule,
  type RevealSchedule,
  type SubnetEpochState,
} from './reveal-schedule';

/** When the chain reveals a commit that is in a block: known once it landed, from the epoch the chain filed it under. */
export interface RevealWindow {
  /** The epoch the chain filed the commit under (`TimelockedWeightCommits` second key). */
  epoch: number;
  /** The block from which it is expected revealed (the reveal epoch's first block + 3, as §12's `reveal_block`). */
  revealBlock: number;
  /** The last block of the reveal epoch: a commit the chain still holds after it is never revealed. */
  revealDeadlineBlock: number;
}

interface At {
  /** The head block the commit is computed against (and the epoch state read at). */
  block: number;
  netuid: number;
}

/**
 * The round to seal a commit made now against head `block` to, on the schedule the runtime uses
 * (DECISIONS §12): the legacy formula, or the stateful epoch scheduler on runtimes with `SubnetEpochIndex`.
 */
export function revealSchedule(rules: WeightsRules, at: At & { nowSeconds: number; drand: Pick<DrandBeaconConfig, 'genesisTime' | 'period'> }): RevealSchedule {
  const clock = {
    revealPeriodEpochs: rules.revealPeriodEpochs,
    blockSeconds: rules.blockTimeMs / 1000,
    nowSeconds: at.nowSeconds,
    drand: { genesisTime: at.drand.genesisTime, period: at.drand.period },
  };
  const state = epochState(rules, at);
  if (state) return statefulRevealSchedule({ ...state, ...clock });
  return legacyRevealSchedule({ block: at.block, netuid: at.netuid, tempo: rules.tempo, ...clock });
}

/**
 * The reveal window of a commit included in `inclusionBlock`. The formula's epoch is the head's; the chain
 * files a commit under the epoch of the block it lands in, one later when that block runs the epoch, so
 * the window is taken from where it landed: a commit that reveals an epoch later than the formula said is
 * not reported missed.
 */
export function revealWindow(rules: WeightsRules, at: At, inclusionBlock: number): RevealWindow {
  const state = epochState(rules, at);
  if (state) {
    const epoch = statefulEpochIndexAt(state, Math.max(inclusionBlock, state.block + 1));
    const revealEpoch = epoch + rules.revealPeriodEpochs;
    return {
      epoch,
      revealBlock: statefulEpochStartBlock(state, revealEpoch) + REVEAL_BLOCK_OFFSET,
      revealDeadlineBlock: statefulEpochStartBlock(state, revealEpoch + 1) - 1,
    };
  }
  const epoch = legacyCommitEpoch(inclusionBlock, at.netuid, rules.tempo);
  const revealEpoch = epoch + rules.revealPeriodEpochs;
  return {
    epoch,
    revealBlock: legacyEpochStartBlock(revealEpoch, at.netuid, rules.tempo) + REVEAL_BLOCK_OFFSET,
    revealDeadlineBlock: legacyEpochStartBlock(revealEpoch + 1, at.netuid, rules.tempo) - 1,
  };
}

function epochState(rules: WeightsRules, at: At): SubnetEpochState | null {
  return rules.epochSchedule === 'stateful' && rules.epochState !== null ? { block: at.block, tempo: rules.tempo, ...rules.epochState } : null;
}

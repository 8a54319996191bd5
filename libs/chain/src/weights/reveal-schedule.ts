/**
 * When the Subtensor chain will reveal a timelocked weight commit, and which drand round to seal it to
 * (DECISIONS.md §12). Pure arithmetic: every chain value is an explicit input.
 *
 * Two runtime families:
 * - legacy (no `SubtensorModule::SubnetEpochIndex` storage): epochs are a function of the block number,
 *   `epoch = ⌊(block + netuid + 1) / (tempo + 1)⌋`, and the chain reveals the commits of epoch E in the first
 *   block of epoch E + RevealPeriodEpochs.
 * - stateful (the runtime has `SubnetEpochIndex`): each subnet keeps an epoch counter that `run_coinbase`
 *   advances when the subnet's epoch fires (`LastEpochBlock + Tempo` reached, an owner-triggered
 *   `PendingEpochAt`, or the `BlocksSinceLastStep > MAX_TEMPO` safety net). A commit is filed under the
 *   counter's look-ahead value at its block, and the chain reveals it in the first block whose look-ahead value
 *   is that epoch + RevealPeriodEpochs. Predicting that block means replaying the scheduler forward from the
 *   state read at the head, assuming nobody triggers an epoch or changes the tempo meanwhile, and not modelling
 *   the `MaxEpochsPerBlock` deferral (which can only push a fire later).
 *
 * In both, the round is the drand round due `REVEAL_BLOCK_OFFSET` blocks after the reveal epoch starts, so the
 * chain already holds its pulse when it tries to reveal: `max(1, ⌊(now + Δblocks·blockSeconds − genesis) / period⌋)`.
 */

/** A drand beacon's clock (seconds). */
export interface DrandSchedule {
  /** The beacon's `genesis_time` (unix seconds): round 1 is emitted then, round r at `genesis + (r − 1)·period`. */
  genesisTime: number;
  /** Seconds between rounds. */
  period: number;
}

/** The drand quicknet beacon that Subtensor's `Drand` pallet follows. */
export const QUICKNET: Readonly<DrandSchedule> = Object.freeze({ genesisTime: 1_692_803_367, period: 3 });

/** Blocks after the first block of the reveal epoch whose expected time picks the drand round (DECISIONS.md §12). */
export const REVEAL_BLOCK_OFFSET = 3;

/** A commit submitted against the head block lands in the next block at the earliest. */
export const COMMIT_INCLUSION_BLOCK_OFFSET = 1;

/** `pallet_subtensor::MAX_TEMPO`: once `BlocksSinceLastStep` exceeds it, the stateful scheduler fires regardless. */
export const MAX_TEMPO = 50_400;

/** `pallet_subtensor::MIN_COMMIT_REVEAL_PEROIDS`: the least `RevealPeriodEpochs` the chain accepts. */
export const MIN_REVEAL_PERIOD_EPOCHS = 1;

const U16_MAX = 0xffff;

/** Where and when a commit made now will be revealed. */
export interface RevealSchedule {
  /** The epoch the chain files the commit under (`TimelockedWeightCommits` second key). */
  epoch: number;
  /** `epoch + RevealPeriodEpochs`: the epoch in whose first block the chain reveals it. */
  revealEpoch: number;
  /** The first block of `revealEpoch`, where the chain first tries to reveal. */
  revealEpochStartBlock: number;
  /** `revealEpochStartBlock + REVEAL_BLOCK_OFFSET`: the block whose expected time picks `revealRound` (§12 `reveal_block`). */
  revealBlock: number;
  /** The drand round to seal the commit to. */
  revealRound: number;
}

/** The clock inputs shared by both schedules. */
export interface RevealClock {
  /** `RevealPeriodEpochs(netuid)`; the chain allows 1 and up. */
  revealPeriodEpochs: number;
  /** Expected seconds per block (12 on the real chain; the fast-blocks dev chain is faster). */
  blockSeconds: number;
  /** Unix seconds at `block` (may be fractional). */
  nowSeconds: number;
  drand: DrandSchedule;
}

export interface LegacyRevealInput extends RevealClock {
  /** The head block the commit is computed against. */
  block: number;
  netuid: number;
  /** `Tempo(netuid)`. */
  tempo: number;
}

/**
 * The stateful scheduler's state for one subnet, as read from storage at block `block` (after that block
 * executed). Each field is named after the `SubtensorModule` storage item it comes from, keyed by netuid.
 */
export interface SubnetEpochState {
  /** `System::Number`: the block the state was read at. */
  block: number;
  /** `Tempo(netuid)`, u16. */
  tempo: number;
  /** `LastEpochBlock(netuid)`, u64: the block the last epoch slot was consumed (or the tempo was reset). */
  lastEpochBlock: number;
  /** `PendingEpochAt(netuid)`, u64: block of an owner-triggered epoch, 0 for none. */
  pendingEpochAt: number;
  /** `SubnetEpochIndex(netuid)`, u64: the epoch counter. */
  subnetEpochIndex: number;
  /** `BlocksSinceLastStep(netuid)`, u64. */
  blocksSinceLastStep: number;
}

export interface StatefulRevealInput extends SubnetEpochState, RevealClock {
  /** Blocks after `block` that the commit lands in; default `COMMIT_INCLUSION_BLOCK_OFFSET` (1). */
  inclusionOffset?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared

/**
 * The round to seal to for unix time `seconds`: `max(1, ⌊(seconds − genesis) / period⌋)`, one before the round
 * drand emits at `seconds`, so its pulse is out a period earlier.
 */
export function drandRoundAt(seconds: number, drand: DrandSchedule): number {
  requireFinite('seconds', seconds, 0);
  requireDrand(drand);
  const round = Math.floor((seconds - drand.genesisTime) / drand.period);
  return Math.max(1, safe('revealRound', round));
}

function roundFor(clock: RevealClock, blocksAhead: number): number {
  return drandRoundAt(clock.nowSeconds + blocksAhead * clock.blockSeconds, clock.drand);
}

function requireClock(clock: RevealClock): void {
  requireUint('revealPeriodEpochs', clock.revealPeriodEpochs, MIN_REVEAL_PERIOD_EPOCHS);
  requireFinite('blockSeconds', clock.blockSeconds, Number.MIN_VALUE);
  requireFinite('nowSeconds', clock.nowSeconds, 0);
  requireDrand(clock.drand);
}

function requireDrand(drand: DrandSchedule): void {
  if (typeof drand !== 'object' || drand === null) throw new RangeError('drand must be { genesisTime, period }');
  requireFinite('drand.genesisTime', drand.genesisTime, 0);
  requireFinite('drand.period', drand.period, Number.MIN_VALUE);
}

function requireUint(name: string, value: number, min = 0, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer in ${min}..${max}`;
    throw new RangeError(`${name} must be ${range} (got ${String(value)})`);
  }
}

function requireFinite(name: string, value: number, min: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    const bound = min === Number.MIN_VALUE ? '> 0' : `≥ ${min}`;
    throw new RangeError(`${name} must be a finite number ${bound} (got ${String(value)})`);
  }
}

function safe(name: string, value: number): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} overflows a safe integer (${String(value)})`);
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// Legacy runtimes (no SubnetEpochIndex)

function requireLegacy(block: number, netuid: number, tempo: number): void {
  requireUint('block', block);
  requireUint('netuid', netuid, 0, U16_MAX);
  requireUint('tempo', tempo, 0, U16_MAX);
}

/**
 * The epoch a block belongs to on legacy runtimes: `⌊(block + netuid + 1) / (tempo + 1)⌋` (the chain's
 * `get_epoch_index`; with tempo 0 every block is its own epoch).
 */
export function legacyEpochIndex(block: number, netuid: number, tempo: number): number {
  requireLegacy(block, netuid, tempo);
  return Math.floor(safe('block + netuid + 1', block + netuid + 1) / (tempo + 1));
}

/**
 * The first block of epoch `epoch` on legacy runtimes, where the chain reveals the commits of
 * `epoch − RevealPeriodEpochs`: `epoch·(tempo + 1) − (netuid + 1)`, floored at 0 as the chain saturates.
 */
export function legacyEpochStartBlock(epoch: number, netuid: number, tempo: number): number {
  requireUint('epoch', epoch);
  requireLegacy(0, netuid, tempo);
  return Math.max(0, safe('epoch start block', epoch * (tempo + 1) - (netuid + 1)));
}

/**
 * Whether the legacy chain runs the subnet's epoch in `block`: `(block + netuid + 1) mod (tempo + 1) = tempo`,
 * i.e. the last block of an epoch index; never with tempo 0.
 */
export function legacyRunsEpochAt(block: number, netuid: number, tempo: number): boolean {
  requireLegacy(block, netuid, tempo);
  return tempo !== 0 && (block + netuid + 1) % (tempo + 1) === tempo;
}

/**
 * The epoch the legacy chain files a commit included in `block` under: `legacyEpochIndex(block)`, plus one
 * when the subnet's epoch ran in that block (a commit in an epoch's last block belongs to the next epoch).
 */
export function legacyCommitEpoch(block: number, netuid: number, tempo: number): number {
  return legacyEpochIndex(block, netuid, tempo) + (legacyRunsEpochAt(block, netuid, tempo) ? 1 : 0);
}

/**
 * DECISIONS.md §12 for legacy runtimes: `epoch = ⌊(block + netuid + 1) / (tempo + 1)⌋`,
 * `reveal_block = (epoch + RevealPeriodEpochs)·(tempo + 1) − (netuid + 1) + 3`,
 * `reveal_round = max(1, ⌊(now + (reveal_block − block)·block_seconds − genesis) / period⌋)`.
 */
export function legacyRevealSchedule(input: LegacyRevealInput): RevealSchedule {
  requireClock(input);
  const epoch = legacyEpochIndex(input.block, input.netuid, input.tempo);
  const revealEpoch = safe('revealEpoch', epoch + input.revealPeriodEpochs);
  const revealEpochStartBlock = legacyEpochStartBlock(revealEpoch, input.netuid, input.tempo);
  const revealBlock = safe('revealBlock', revealEpochStartBlock + REVEAL_BLOCK_OFFSET);
  // revealEpoch > epoch, so its start lies after `block` and the difference is positive.
  const revealRound = roundFor(input, revealBlock - input.block);
  return { epoch, revealEpoch, revealEpochStartBlock, revealBlock, revealRound };
}

// ---------------------------------------------------------------------------------------------------------------
// Stateful runtimes (SubnetEpochIndex)

/** Scheduler state at the end of block `block`. */
interface Sched {
  block: number;
  tempo: number;
  last: number;
  pending: number;
  index: number;
  sinceStep: number;
}

function toSched(state: SubnetEpochState): Sched {
  if (typeof state !== 'object' || state === null) throw new RangeError('state must be a SubnetEpochState');
  requireUint('block', state.block);
  requireUint('tempo', state.tempo, 0, U16_MAX);
  requireUint('lastEpochBlock', state.lastEpochBlock);
  requireUint('pendingEpochAt', state.pendingEpochAt);
  requireUint('subnetEpochIndex', state.subnetEpochIndex);
  requireUint('blocksSinceLastStep', state.blocksSinceLastStep);
  if (state.lastEpochBlock > state.block) {
    throw new RangeError(`lastEpochBlock (${String(state.lastEpochBlock)}) is after block (${String(state.block)}): the state must be read at \`block\``);
  }
  return {
    block: state.block,
    tempo: state.tempo,
    last: state.lastEpochBlock,
    pending: state.pendingEpochAt,
    index: state.subnetEpochIndex,
    sinceStep: state.blocksSinceLastStep,
  };
}

/**
 * The chain's `should_run_epoch(netuid, b)` evaluated on state `s` (as of the end of `b − 1`) with
 * `BlocksSinceLastStep = sinceStep`. Before `run_coinbase` (the reveal and the commit look-ahead) that is
 * `s.sinceStep`; inside `run_coinbase` the counter has already been bumped by one.
 */
function shouldRun(s: Sched, b: number, sinceStep: number): boolean {
  if (s.tempo === 0) return false;
  if (s.pending > 0 && b >= s.pending) return true;
  if (sinceStep > MAX_TEMPO) return true;
  return b >= s.last + s.tempo;
}

/** The first block after `s.block` in which `run_coinbase` fires the epoch (Infinity with tempo 0). */
function nextFire(s: Sched): number {
  if (s.tempo === 0) return Infinity;
  const after = s.block + 1;
  let fire = Math.max(after, s.last + s.tempo);
  if (s.pending > 0) fire = Math.min(fire, Math.max(after, s.pending));
  // run_coinbase bumps BlocksSinceLastStep before checking it: at block b it reads sinceStep + (b − s.block).
  return Math.min(fire, Math.max(after, s.block + MAX_TEMPO + 1 - s.sinceStep));
}

/** State at the end of block `b` (≥ s.block) when no epoch fires in (s.block, b]. */
function idleTo(s: Sched, b: number): Sched {
  return { ...s, block: b, sinceStep: s.sinceStep + (b - s.block) };
}

/** State at the end of block `f`, in which the epoch fires. */
function fireAt(s: Sched, f: number): Sched {
  return { ...s, block: f, last: f, pending: 0, index: s.index + 1, sinceStep: 0 };
}

/** After a fire, with nothing pending, the epoch fires every this many blocks (tempo, or the safety net's). */
function firePeriod(tempo: number): number {
  return Math.min(tempo, MAX_TEMPO + 1);
}

/** `s` (the state right after a fire) moved on by `fires` further periodic fires. */
function skipFires(s: Sched, fires: number): Sched {
  const block = safe('block', s.block + fires * firePeriod(s.tempo));
  return { ...s, block, last: block, index: s.index + fires };
}

/** State at the end of block `b` (≥ s.block), replaying every fire in between. */
function advanceTo(s: Sched, b: number): Sched {
  let cur = s;
  for (let f = nextFire(cur); f <= b; f = nextFire(cur)) {
    cur = fireAt(cur, f);
    cur = skipFires(cur, Math.floor((b - cur.block) / firePeriod(cur.tempo)));
  }
  return idleTo(cur, b);
}

/** The look-ahead epoch index (`current_epoch_with_lookahead`) at block `s.block + 1`. */
function lookaheadNext(s: Sched): number {
  return s.index + (shouldRun(s, s.block + 1, s.sinceStep) ? 1 : 0);
}

/**
 * The first block after `s.block` whose look-ahead epoch index is `target` (> s.index), assuming no new
 * trigger and no tempo change. The look-ahead index rises by at most one per block, so that block exists.
 */
function firstBlockOfEpoch(s: Sched, target: number): number {
  let cur = s;
  for (;;) {
    // Up to the next fire f the look-ahead index is cur.index; at f it shows the fire unless only the safety net
    // (which counts the bump run_coinbase is about to make) triggers it, and then the new index shows from f + 1.
    const next = lookaheadNext(cur);
    if (next === target) return cur.block + 1;
    const f = nextFire(cur);
    if (f > cur.block + 1 && lookaheadNext(idleTo(cur, f - 1)) === target) return f;
    if (next > target || f === Infinity) throw new RangeError(`epoch ${String(target)} is never the current epoch from block ${String(s.block)}`);
    cur = fireAt(cur, f);
    // Skip all but the last periodic fire before the target.
    cur = skipFires(cur, Math.max(0, target - cur.index - 1));
  }
}

/**
 * The epoch index the stateful chain assigns at block `block` (> state.block): the `SubnetEpochIndex` it will
 * hold before that block's `run_coinbase`, plus one if the epoch fires in it. A commit included in `block` is
 * filed under it, and a reveal in `block` reveals the commits of it minus `RevealPeriodEpochs`.
 */
export function statefulEpochIndexAt(state: SubnetEpochState, block: number): number {
  const s = toSched(state);
  requireUint('block', block, s.block + 1);
  return lookaheadNext(advanceTo(s, block - 1));
}

/**
 * The first block after `state.block` whose epoch index (as in `statefulEpochIndexAt`) is `epoch`, i.e. where
 * the chain reveals the commits of `epoch − RevealPeriodEpochs`. `epoch` must not have started by `state.block`
 * (`epoch > SubnetEpochIndex`); throws RangeError when the subnet runs no epochs (tempo 0).
 */
export function statefulEpochStartBlock(state: SubnetEpochState, epoch: number): number {
  const s = toSched(state);
  requireUint('epoch', epoch, s.index + 1);
  if (s.tempo === 0) throw new RangeError('tempo is 0: the subnet runs no epochs, so epoch ' + String(epoch) + ' never starts');
  return firstBlockOfEpoch(s, epoch);
}

/**
 * The reveal schedule on runtimes with `SubnetEpochIndex`: the commit lands in `block + inclusionOffset` and is
 * filed under that block's epoch index; the chain reveals it in the first block of that epoch +
 * RevealPeriodEpochs, and the round targets `REVEAL_BLOCK_OFFSET` blocks later. Throws RangeError with tempo 0
 * (the subnet runs no epochs, so a commit would never be revealed).
 */
export function statefulRevealSchedule(input: StatefulRevealInput): RevealSchedule {
  const s = toSched(input);
  requireClock(input);
  const offset = input.inclusionOffset ?? COMMIT_INCLUSION_BLOCK_OFFSET;
  requireUint('inclusionOffset', offset, 1);
  if (s.tempo === 0) throw new RangeError('tempo is 0: the subnet runs no epochs, so a commit would never be revealed');
  const inclusionBlock = safe('inclusion block', s.block + offset);
  const beforeInclusion = advanceTo(s, inclusionBlock - 1);
  const epoch = lookaheadNext(beforeInclusion);
  const revealEpoch = safe('revealEpoch', epoch + input.revealPeriodEpochs);
  const revealEpochStartBlock = firstBlockOfEpoch(beforeInclusion, revealEpoch);
  const revealBlock = safe('revealBlock', revealEpochStartBlock + REVEAL_BLOCK_OFFSET);
  const revealRound = roundFor(input, revealBlock - s.block);
  return { epoch, revealEpoch, revealEpochStartBlock, revealBlock, revealRound };
}

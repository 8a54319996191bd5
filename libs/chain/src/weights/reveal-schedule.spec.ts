import {
  COMMIT_INCLUSION_BLOCK_OFFSET,
  MAX_TEMPO,
  QUICKNET,
  REVEAL_BLOCK_OFFSET,
  type SubnetEpochState,
  drandRoundAt,
  legacyCommitEpoch,
  legacyEpochIndex,
  legacyEpochStartBlock,
  legacyRevealSchedule,
  legacyRunsEpochAt,
  statefulEpochIndexAt,
  statefulEpochStartBlock,
  statefulRevealSchedule,
} from './reveal-schedule';

// A fixed clock: NOW − quicknet genesis = 1_750_000_000 − 1_692_803_367 = 57_196_633 = 3·19_065_544 + 1,
// so with 12 s blocks a reveal Δ blocks ahead seals to ⌊(57_196_633 + 12Δ) / 3⌋ = 19_065_544 + 4Δ.
const NOW = 1_750_000_000;
const roundAhead = (blocks: number): number => 19_065_544 + 4 * blocks;
const clock = { blockSeconds: 12, nowSeconds: NOW, drand: QUICKNET };

describe('constants', () => {
  it('are the quicknet beacon and the chain bounds', () => {
    expect(QUICKNET).toEqual({ genesisTime: 1_692_803_367, period: 3 });
    expect(REVEAL_BLOCK_OFFSET).toBe(3);
    expect(COMMIT_INCLUSION_BLOCK_OFFSET).toBe(1);
    expect(MAX_TEMPO).toBe(50_400);
  });
});

describe('drandRoundAt', () => {
  it('floors (t − genesis) / period', () => {
    // (1_692_803_367 + 300 − 1_692_803_367) / 3 = 100; +2 s is still round 100; +3 s is 101
    expect(drandRoundAt(1_692_803_667, QUICKNET)).toBe(100);
    expect(drandRoundAt(1_692_803_669, QUICKNET)).toBe(100);
    expect(drandRoundAt(1_692_803_670, QUICKNET)).toBe(101);
  });

  it('is at least 1 (the max(1, …) floor)', () => {
    expect(drandRoundAt(0, QUICKNET)).toBe(1); // (0 − genesis) / 3 < 0 → 1
    expect(drandRoundAt(QUICKNET.genesisTime, QUICKNET)).toBe(1); // 0 / 3 = 0 → 1
    expect(drandRoundAt(QUICKNET.genesisTime + 6, QUICKNET)).toBe(2); // 6 / 3 = 2
  });
});

describe('legacy epoch arithmetic', () => {
  it.each([
    // ⌊(block + netuid + 1) / (tempo + 1)⌋
    { block: 0, netuid: 0, tempo: 10, epoch: 0 }, // ⌊1/11⌋
    { block: 9, netuid: 0, tempo: 10, epoch: 0 }, // ⌊10/11⌋
    { block: 10, netuid: 0, tempo: 10, epoch: 1 }, // ⌊11/11⌋
    { block: 1000, netuid: 94, tempo: 10, epoch: 99 }, // ⌊1095/11⌋, 11·99 = 1089
    { block: 7_000_000, netuid: 0, tempo: 360, epoch: 19_390 }, // ⌊7_000_001/361⌋, 361·19_390 = 6_999_790
    { block: 7_000_000, netuid: 94, tempo: 360, epoch: 19_390 }, // ⌊7_000_095/361⌋
    { block: 50, netuid: 2, tempo: 0, epoch: 53 }, // ⌊53/1⌋: with tempo 0 every block is an epoch
  ])('legacyEpochIndex($block, $netuid, $tempo) = $epoch', ({ block, netuid, tempo, epoch }) => {
    expect(legacyEpochIndex(block, netuid, tempo)).toBe(epoch);
  });

  it.each([
    // epoch·(tempo + 1) − (netuid + 1), floored at 0
    { epoch: 1, netuid: 0, tempo: 10, start: 10 }, // 11 − 1
    { epoch: 2, netuid: 0, tempo: 10, start: 21 }, // 22 − 1
    { epoch: 9, netuid: 94, tempo: 10, start: 4 }, // 99 − 95
    { epoch: 19_391, netuid: 0, tempo: 360, start: 7_000_150 }, // 7_000_151 − 1
    { epoch: 0, netuid: 94, tempo: 360, start: 0 }, // 0 − 95 saturates to 0
    { epoch: 8, netuid: 94, tempo: 10, start: 0 }, // 88 − 95 saturates to 0
  ])('legacyEpochStartBlock($epoch, $netuid, $tempo) = $start', ({ epoch, netuid, tempo, start }) => {
    expect(legacyEpochStartBlock(epoch, netuid, tempo)).toBe(start);
  });

  it('starts each epoch where legacyEpochIndex steps up', () => {
    for (const [netuid, tempo] of [[0, 10], [94, 10], [3, 1], [94, 360], [0, 0]] as const) {
      // the first epoch whose start is not saturated
      for (let epoch = Math.ceil((netuid + 2) / (tempo + 1)); epoch < 40; epoch++) {
        const start = legacyEpochStartBlock(epoch, netuid, tempo);
        expect(legacyEpochIndex(start, netuid, tempo)).toBe(epoch);
        expect(legacyEpochIndex(start - 1, netuid, tempo)).toBe(epoch - 1);
      }
    }
  });

  // The table in subtensor's legacy `blocks_until_next_epoch` doc comment (pallets/subtensor/src/coinbase/run_coinbase.rs
  // at d30a76f38e374fb8b600d79f3ae19fea8e839a9d^): tempo | netuid | first block the epoch runs in.
  it.each([
    [1, 0, 0],
    [1, 1, 1],
    [2, 0, 1],
    [2, 1, 0],
    [100, 0, 99],
    [100, 1, 98],
  ])('legacyRunsEpochAt: tempo %i, netuid %i first runs in block %i', (tempo, netuid, first) => {
    for (let block = 0; block < first; block++) expect(legacyRunsEpochAt(block, netuid, tempo)).toBe(false);
    expect(legacyRunsEpochAt(first, netuid, tempo)).toBe(true);
    expect(legacyRunsEpochAt(first + tempo + 1, netuid, tempo)).toBe(true);
  });

  it('never runs an epoch with tempo 0', () => {
    for (let block = 0; block < 20; block++) expect(legacyRunsEpochAt(block, 0, 0)).toBe(false);
  });

  it('files a commit in an epoch’s last block (where the epoch runs) under the next epoch', () => {
    // tempo 10, netuid 0: block 20 is the last of epoch 1 ((20 + 1) mod 11 = 10), so the epoch runs there
    expect(legacyCommitEpoch(19, 0, 10)).toBe(1);
    expect(legacyCommitEpoch(20, 0, 10)).toBe(2); // ⌊21/11⌋ + 1
    expect(legacyCommitEpoch(21, 0, 10)).toBe(2); // ⌊22/11⌋
    expect(legacyCommitEpoch(50, 2, 0)).toBe(53); // tempo 0: never runs, no shift
  });
});

describe('legacyRevealSchedule', () => {
  it.each([
    {
      name: 'mainnet tempo 360, netuid 0, RevealPeriodEpochs 1',
      // epoch ⌊7_000_001/361⌋ = 19_390; start (19_391·361 = 7_000_151) − 1 = 7_000_150; +3 → 7_000_153; Δ 153
      input: { block: 7_000_000, netuid: 0, tempo: 360, revealPeriodEpochs: 1 },
      expected: { epoch: 19_390, revealEpoch: 19_391, revealEpochStartBlock: 7_000_150, revealBlock: 7_000_153, revealRound: 19_066_156 },
    },
    {
      name: 'mainnet tempo 360, netuid 94, RevealPeriodEpochs 2',
      // epoch ⌊7_000_095/361⌋ = 19_390; start 19_392·361 − 95 = 7_000_512 − 95 = 7_000_417; +3 → 7_000_420; Δ 420
      input: { block: 7_000_000, netuid: 94, tempo: 360, revealPeriodEpochs: 2 },
      expected: { epoch: 19_390, revealEpoch: 19_392, revealEpochStartBlock: 7_000_417, revealBlock: 7_000_420, revealRound: 19_067_224 },
    },
    {
      name: 'dev tempo 10, netuid 0: a commit exactly at the first block of epoch 2',
      // epoch ⌊22/11⌋ = 2; start 3·11 − 1 = 32; +3 → 35; Δ 14
      input: { block: 21, netuid: 0, tempo: 10, revealPeriodEpochs: 1 },
      expected: { epoch: 2, revealEpoch: 3, revealEpochStartBlock: 32, revealBlock: 35, revealRound: roundAhead(14) },
    },
    {
      name: 'dev tempo 10, netuid 0: just before the boundary',
      // epoch ⌊21/11⌋ = 1; start 2·11 − 1 = 21; +3 → 24; Δ 4
      input: { block: 20, netuid: 0, tempo: 10, revealPeriodEpochs: 1 },
      expected: { epoch: 1, revealEpoch: 2, revealEpochStartBlock: 21, revealBlock: 24, revealRound: roundAhead(4) },
    },
    {
      name: 'dev tempo 10, netuid 0: just after the boundary',
      // epoch ⌊23/11⌋ = 2; start 32; +3 → 35; Δ 13
      input: { block: 22, netuid: 0, tempo: 10, revealPeriodEpochs: 1 },
      expected: { epoch: 2, revealEpoch: 3, revealEpochStartBlock: 32, revealBlock: 35, revealRound: roundAhead(13) },
    },
    {
      name: 'dev tempo 10, netuid 94, RevealPeriodEpochs 3',
      // epoch ⌊1095/11⌋ = 99; start 102·11 − 95 = 1027; +3 → 1030; Δ 30
      input: { block: 1000, netuid: 94, tempo: 10, revealPeriodEpochs: 3 },
      expected: { epoch: 99, revealEpoch: 102, revealEpochStartBlock: 1027, revealBlock: 1030, revealRound: roundAhead(30) },
    },
    {
      name: 'tempo 0 (every block an epoch)',
      // epoch 50 + 2 + 1 = 53; start 54·1 − 3 = 51; +3 → 54; Δ 4
      input: { block: 50, netuid: 2, tempo: 0, revealPeriodEpochs: 1 },
      expected: { epoch: 53, revealEpoch: 54, revealEpochStartBlock: 51, revealBlock: 54, revealRound: roundAhead(4) },
    },
  ])('$name', ({ input, expected }) => {
    expect(legacyRevealSchedule({ ...input, ...clock })).toEqual(expected);
  });

  it('floors the round at 1 before genesis and follows the clock after it', () => {
    // block 20, tempo 10: revealBlock 24, Δ 4 blocks of 0.25 s = 1 s
    const base = { block: 20, netuid: 0, tempo: 10, revealPeriodEpochs: 1, blockSeconds: 0.25, drand: QUICKNET };
    expect(legacyRevealSchedule({ ...base, nowSeconds: 0 }).revealRound).toBe(1); // far before genesis
    expect(legacyRevealSchedule({ ...base, nowSeconds: QUICKNET.genesisTime }).revealRound).toBe(1); // ⌊1/3⌋ = 0 → 1
    expect(legacyRevealSchedule({ ...base, nowSeconds: QUICKNET.genesisTime + 5 }).revealRound).toBe(2); // ⌊6/3⌋
  });

  it('rejects bad input with RangeError', () => {
    const ok = { block: 21, netuid: 0, tempo: 10, revealPeriodEpochs: 1, ...clock };
    for (const bad of [
      { block: -1 },
      { block: 1.5 },
      { netuid: 65_536 },
      { tempo: 65_536 },
      { tempo: -1 },
      { revealPeriodEpochs: 0 },
      { blockSeconds: 0 },
      { nowSeconds: Number.NaN },
      { drand: { genesisTime: QUICKNET.genesisTime, period: 0 } },
    ]) {
      expect(() => legacyRevealSchedule({ ...ok, ...bad })).toThrow(RangeError);
    }
    expect(() => legacyRevealSchedule({ ...ok, revealPeriodEpochs: 0 })).toThrow('revealPeriodEpochs must be an integer ≥ 1 (got 0)');
    expect(() => legacyEpochIndex(Number.MAX_SAFE_INTEGER, 1, 10)).toThrow(RangeError);
    expect(() => legacyEpochStartBlock(-1, 0, 10)).toThrow(RangeError);
  });
});

describe('statefulRevealSchedule', () => {
  const mainnet: SubnetEpochState = {
    block: 7_000_100,
    tempo: 360,
    lastEpochBlock: 7_000_000,
    pendingEpochAt: 0,
    subnetEpochIndex: 19_390,
    blocksSinceLastStep: 100,
  };
  // tempo 10, last epoch at 100: the next fires at 110, 120, …
  const dev = (block: number, extra: Partial<SubnetEpochState> = {}): SubnetEpochState => ({
    block,
    tempo: 10,
    lastEpochBlock: 100,
    pendingEpochAt: 0,
    subnetEpochIndex: 5,
    blocksSinceLastStep: block - 100,
    ...extra,
  });

  it.each([
    {
      name: 'mainnet tempo 360, RevealPeriodEpochs 1',
      // lands in 7_000_101 < 7_000_000 + 360: epoch 19_390; epoch 19_391 fires at 7_000_360; +3 → 7_000_363; Δ 263
      state: mainnet,
      revealPeriodEpochs: 1,
      expected: { epoch: 19_390, revealEpoch: 19_391, revealEpochStartBlock: 7_000_360, revealBlock: 7_000_363, revealRound: roundAhead(263) },
    },
    {
      name: 'mainnet tempo 360, RevealPeriodEpochs 3',
      // fires at 7_000_360 (19_391), 7_000_720 (19_392), 7_001_080 (19_393); +3 → 7_001_083; Δ 983
      state: mainnet,
      revealPeriodEpochs: 3,
      expected: { epoch: 19_390, revealEpoch: 19_393, revealEpochStartBlock: 7_001_080, revealBlock: 7_001_083, revealRound: roundAhead(983) },
    },
    {
      name: 'owner-triggered PendingEpochAt before the automatic fire, RevealPeriodEpochs 2',
      // 19_391 fires at PendingEpochAt 7_000_150 (< 7_000_360); 19_392 at 7_000_150 + 360 = 7_000_510; +3 → 7_000_513; Δ 413
      state: { ...mainnet, pendingEpochAt: 7_000_150 },
      revealPeriodEpochs: 2,
      expected: { epoch: 19_390, revealEpoch: 19_392, revealEpochStartBlock: 7_000_510, revealBlock: 7_000_513, revealRound: roundAhead(413) },
    },
    {
      name: 'dev tempo 10: commit lands exactly in the block the epoch fires',
      // head 109 → lands in 110 = 100 + 10, epoch 6 fires there: filed under 6; 7 fires at 120; +3 → 123; Δ 14
      state: dev(109),
      revealPeriodEpochs: 1,
      expected: { epoch: 6, revealEpoch: 7, revealEpochStartBlock: 120, revealBlock: 123, revealRound: roundAhead(14) },
    },
    {
      name: 'dev tempo 10: commit lands just before the fire',
      // head 108 → lands in 109 < 110: epoch 5; 6 fires at 110; +3 → 113; Δ 5
      state: dev(108),
      revealPeriodEpochs: 1,
      expected: { epoch: 5, revealEpoch: 6, revealEpochStartBlock: 110, revealBlock: 113, revealRound: roundAhead(5) },
    },
    {
      name: 'dev tempo 10: commit just after the fire',
      // head 110 (epoch 6 fired there: LastEpochBlock 110, index 6) → lands in 111: epoch 6; 7 fires at 120; +3 → 123; Δ 13
      state: dev(110, { lastEpochBlock: 110, subnetEpochIndex: 6, blocksSinceLastStep: 0 }),
      revealPeriodEpochs: 1,
      expected: { epoch: 6, revealEpoch: 7, revealEpochStartBlock: 120, revealBlock: 123, revealRound: roundAhead(13) },
    },
    {
      name: 'dev tempo 10: a deferred epoch pending at the inclusion block, RevealPeriodEpochs 2',
      // head 104, PendingEpochAt 105 → lands in 105, epoch 6 fires there: filed under 6; 7 at 115, 8 at 125; +3 → 128; Δ 24
      state: dev(104, { pendingEpochAt: 105 }),
      revealPeriodEpochs: 2,
      expected: { epoch: 6, revealEpoch: 8, revealEpochStartBlock: 125, revealBlock: 128, revealRound: roundAhead(24) },
    },
    {
      name: 'root-set tempo above MAX_TEMPO: the safety net fires, and the reveal shows one block later',
      // lands in 1001: epoch 0. No fire until BlocksSinceLastStep passes 50_400: run_coinbase fires at 1000 + 50_401 =
      // 51_401, but the look-ahead there still reads 50_400 (not > MAX_TEMPO), so epoch 1 shows from 51_402; +3 → 51_405
      state: { block: 1000, tempo: 60_000, lastEpochBlock: 1000, pendingEpochAt: 0, subnetEpochIndex: 0, blocksSinceLastStep: 0 },
      revealPeriodEpochs: 1,
      expected: { epoch: 0, revealEpoch: 1, revealEpochStartBlock: 51_402, revealBlock: 51_405, revealRound: roundAhead(50_405) },
    },
    {
      name: 'BlocksSinceLastStep already above MAX_TEMPO at the head',
      // head 60_401 with 50_401 > 50_400 blocks since the last step: fires in the inclusion block 60_402 → epoch 8;
      // tempo 65_535 > 50_401, so the next fire is the safety net's at 60_402 + 50_401 = 110_803, seen from 110_804
      state: { block: 60_401, tempo: 65_535, lastEpochBlock: 10_000, pendingEpochAt: 0, subnetEpochIndex: 7, blocksSinceLastStep: 50_401 },
      revealPeriodEpochs: 1,
      expected: { epoch: 8, revealEpoch: 9, revealEpochStartBlock: 110_804, revealBlock: 110_807, revealRound: roundAhead(50_406) },
    },
  ])('$name', ({ state, revealPeriodEpochs, expected }) => {
    expect(statefulRevealSchedule({ ...state, revealPeriodEpochs, ...clock })).toEqual(expected);
  });

  it('takes a later inclusion block', () => {
    // head 108, lands 2 blocks later in 110 where epoch 6 fires: filed under 6, revealed at 120; Δ 123 − 108 = 15
    expect(statefulRevealSchedule({ ...dev(108), inclusionOffset: 2, revealPeriodEpochs: 1, ...clock })).toEqual({
      epoch: 6,
      revealEpoch: 7,
      revealEpochStartBlock: 120,
      revealBlock: 123,
      revealRound: roundAhead(15),
    });
  });

  it('floors the round at 1', () => {
    expect(statefulRevealSchedule({ ...dev(108), revealPeriodEpochs: 1, ...clock, nowSeconds: 0 }).revealRound).toBe(1);
  });

  // opentensor/bittensor-drand src/epoch_schedule_vectors.rs @ d7baf9765f39d6c9c876777efe14a4bd11dbaf66, transcribed as
  // data: `predict_vectors` (expected first reveal block) and `commit_epoch_vectors` (expected commit epoch).
  describe('bittensor-drand epoch_schedule vectors', () => {
    it.each([
      { name: 'cycle_reset', state: { lastEpochBlock: 10, pendingEpochAt: 0, subnetEpochIndex: 0, tempo: 50, blocksSinceLastStep: 0, block: 10 }, revealPeriodEpochs: 1, revealEpochStartBlock: 60 },
      { name: 'pending_fires_before_auto', state: { lastEpochBlock: 80, pendingEpochAt: 95, subnetEpochIndex: 0, tempo: 20, blocksSinceLastStep: 0, block: 91 }, revealPeriodEpochs: 1, revealEpochStartBlock: 95 },
    ])('predict $name', ({ state, revealPeriodEpochs, revealEpochStartBlock }) => {
      const schedule = statefulRevealSchedule({ ...state, revealPeriodEpochs, ...clock });
      expect(schedule.revealEpochStartBlock).toBe(revealEpochStartBlock);
      expect(schedule.revealBlock).toBe(revealEpochStartBlock + 3);
    });

    it('predict tempo_zero is an error', () => {
      const state = { lastEpochBlock: 10, pendingEpochAt: 0, subnetEpochIndex: 0, tempo: 0, blocksSinceLastStep: 0, block: 10 };
      expect(() => statefulRevealSchedule({ ...state, revealPeriodEpochs: 1, ...clock })).toThrow(RangeError);
      expect(() => statefulRevealSchedule({ ...state, revealPeriodEpochs: 1, ...clock })).toThrow(/tempo is 0/);
    });

    it('commit_epoch_at_extrinsic_block', () => {
      const state = { lastEpochBlock: 100, pendingEpochAt: 0, subnetEpochIndex: 0, tempo: 50, blocksSinceLastStep: 0, block: 120 };
      expect(statefulRevealSchedule({ ...state, revealPeriodEpochs: 1, ...clock }).epoch).toBe(0);
      expect(statefulEpochIndexAt(state, 121)).toBe(0);
    });
  });

  it('rejects bad input with RangeError', () => {
    const ok = { ...dev(108), revealPeriodEpochs: 1, ...clock };
    for (const bad of [
      { block: -1 },
      { tempo: 65_536 },
      { lastEpochBlock: 109 }, // after the head: state read at the wrong block
      { pendingEpochAt: 0.5 },
      { subnetEpochIndex: -1 },
      { blocksSinceLastStep: Number.POSITIVE_INFINITY },
      { revealPeriodEpochs: 0 },
      { inclusionOffset: 0 },
      { blockSeconds: -12 },
    ]) {
      expect(() => statefulRevealSchedule({ ...ok, ...bad })).toThrow(RangeError);
    }
  });
});

describe('statefulEpochIndexAt / statefulEpochStartBlock', () => {
  const state: SubnetEpochState = { block: 105, tempo: 10, lastEpochBlock: 100, pendingEpochAt: 0, subnetEpochIndex: 5, blocksSinceLastStep: 5 };

  it('numbers blocks by the look-ahead epoch index', () => {
    // fires at 110, 120, …: a block where the epoch fires already belongs to the new epoch
    expect([106, 109, 110, 111, 119, 120, 130].map((block) => statefulEpochIndexAt(state, block))).toEqual([5, 5, 6, 6, 6, 7, 8]);
  });

  it('finds where an epoch starts', () => {
    expect(statefulEpochStartBlock(state, 6)).toBe(110);
    expect(statefulEpochStartBlock(state, 8)).toBe(130); // 110 + 2·10
  });

  it('jumps far ahead without walking every block', () => {
    // tempo 1: every block fires, so block b belongs to epoch b − 100 and epoch e starts at e + 100 (a commit
    // landing in 101 is filed under 1 and revealed in epoch 1 + 1e9, from block 1e9 + 101)
    const fast: SubnetEpochState = { block: 100, tempo: 1, lastEpochBlock: 100, pendingEpochAt: 0, subnetEpochIndex: 0, blocksSinceLastStep: 0 };
    expect(statefulEpochIndexAt(fast, 1e12)).toBe(1e12 - 100);
    expect(statefulEpochStartBlock(fast, 1e12)).toBe(1e12 + 100);
    expect(statefulRevealSchedule({ ...fast, revealPeriodEpochs: 1e9, ...clock }).revealEpochStartBlock).toBe(1e9 + 101);
  });

  it('keeps the index with tempo 0 but never starts an epoch', () => {
    const dormant = { ...state, tempo: 0 };
    expect(statefulEpochIndexAt(dormant, 1_000_000)).toBe(5);
    expect(() => statefulEpochStartBlock(dormant, 6)).toThrow(RangeError);
  });

  it('rejects blocks not after the state and epochs already started', () => {
    expect(() => statefulEpochIndexAt(state, 105)).toThrow(RangeError);
    expect(() => statefulEpochStartBlock(state, 5)).toThrow(RangeError);
  });
});

/**
 * A block-by-block model of the stateful scheduler, independent of the implementation's event jumping: each block
 * first checks the look-ahead index (reveal / commit, before `run_coinbase`), then runs `run_coinbase` (bump
 * BlocksSinceLastStep, fire when due).
 */
function referenceSchedule(state: SubnetEpochState, revealPeriodEpochs: number, inclusionOffset: number): { epoch: number; start: number; indexAt: Map<number, number> } {
  const s = { ...state };
  const due = (b: number, since: number): boolean =>
    s.tempo !== 0 && ((s.pendingEpochAt > 0 && b >= s.pendingEpochAt) || since > MAX_TEMPO || Math.max(0, b - s.lastEpochBlock) >= s.tempo);
  const indexAt = new Map<number, number>();
  const lookahead = (b: number): number => {
    const index = s.subnetEpochIndex + (due(b, s.blocksSinceLastStep) ? 1 : 0);
    indexAt.set(b, index);
    return index;
  };
  const coinbase = (b: number): void => {
    s.blocksSinceLastStep += 1;
    if (due(b, s.blocksSinceLastStep)) Object.assign(s, { lastEpochBlock: b, pendingEpochAt: 0, subnetEpochIndex: s.subnetEpochIndex + 1, blocksSinceLastStep: 0 });
  };
  const inclusion = state.block + inclusionOffset;
  for (let b = state.block + 1; b < inclusion; b++) {
    lookahead(b);
    coinbase(b);
  }
  const epoch = lookahead(inclusion);
  for (let b = inclusion; ; b++) {
    if (lookahead(b) === epoch + revealPeriodEpochs) return { epoch, start: b, indexAt };
    coinbase(b);
  }
}

describe('stateful schedule against a block-by-block reference', () => {
  // A small deterministic generator (LCG), so failures reproduce.
  let seed = 12_345;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };

  it('agrees on 600 random states', () => {
    for (let i = 0; i < 600; i++) {
      const tempo = 1 + next(25);
      const block = next(300);
      const lastEpochBlock = Math.max(0, block - next(40));
      const nearCap = next(10) === 0;
      const state: SubnetEpochState = {
        block,
        tempo,
        lastEpochBlock,
        pendingEpochAt: next(3) === 0 ? Math.max(0, block - 5 + next(60)) : 0,
        subnetEpochIndex: next(1000),
        blocksSinceLastStep: nearCap ? MAX_TEMPO - 3 + next(6) : next(60),
      };
      const revealPeriodEpochs = 1 + next(4);
      const inclusionOffset = 1 + next(3);
      const reference = referenceSchedule(state, revealPeriodEpochs, inclusionOffset);
      const schedule = statefulRevealSchedule({ ...state, revealPeriodEpochs, inclusionOffset, ...clock });
      const where = JSON.stringify({ state, revealPeriodEpochs, inclusionOffset });
      expect([where, schedule.epoch, schedule.revealEpochStartBlock]).toEqual([where, reference.epoch, reference.start]);
      for (const [b, index] of reference.indexAt) expect([where, b, statefulEpochIndexAt(state, b)]).toEqual([where, b, index]);
    }
  });

  it('agrees with tempos at and above the safety net', () => {
    for (const tempo of [MAX_TEMPO, MAX_TEMPO + 1, MAX_TEMPO + 2, 65_535]) {
      for (const blocksSinceLastStep of [0, 7, MAX_TEMPO, MAX_TEMPO + 1]) {
        const state: SubnetEpochState = { block: 70_000, tempo, lastEpochBlock: 69_990, pendingEpochAt: 0, subnetEpochIndex: 3, blocksSinceLastStep };
        const reference = referenceSchedule(state, 2, 1);
        const schedule = statefulRevealSchedule({ ...state, revealPeriodEpochs: 2, ...clock });
        expect([tempo, blocksSinceLastStep, schedule.epoch, schedule.revealEpochStartBlock]).toEqual([tempo, blocksSinceLastStep, reference.epoch, reference.start]);
      }
    }
  });
});

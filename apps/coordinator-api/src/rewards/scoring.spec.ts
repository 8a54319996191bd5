import { AcceptedRewardFloorMode, CompetitionMode, MetricDirection, ScoringMode, TaskState } from '@rcs/contracts';
import { CompetitionPolicy, defaultRewardPolicy, RewardPolicyBody } from './reward-policy.defaults';
import { computeRewardSnapshot } from './reward-snapshot.document';
import { AcceptedRow, acceptedResults, CompetitionData, CurrentBest, duplicateFlags, IdeaCredit, populationStdDev, roundScore, ScoringTask } from './scoring';

/** Every expected number below is worked out by hand: e^-1 = 0.36787944117144…, e^-0.5 = 0.60653065971263…, e^-4 = 0.01831563888873… */

const DAY = 86_400_000;
const T = Date.parse('2025-01-11T00:00:00.000Z');
const CLOCK = { generatedAt: T, scoreEmaDays: 10 };

const DEFAULT_POLICY_JSON =
  '{"version":1,"pools":[],"validator_weights":{"mode":"local","targets":[],"version_key":1337},' +
  '"local_competition":{"enabled":true,"weight":1,"target_pool_id":"main","reward_scope":"competition_only","scoring_mode":"accepted_plus_best",' +
  '"accepted_reward_metric_tolerance":0.000001,"accepted_reward_floor_mode":"best_population_stddev","accepted_reward_floor_value":null,' +
  '"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3},' +
  '"competition_defaults":{"enabled":true,"weight":1,"target_pool_id":"main","reward_scope":"competition_only","scoring_mode":"accepted_plus_best",' +
  '"accepted_reward_metric_tolerance":0.000001,"accepted_reward_floor_mode":"best_population_stddev","accepted_reward_floor_value":null,' +
  '"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3},' +
  '"competition_overrides":{}}';

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

function task(n: number, fields: Partial<ScoringTask> = {}): ScoringTask {
  return {
    id: uuid(n),
    slug: `task-${n}`,
    title: `Task ${n}`,
    competitionMode: CompetitionMode.Standard,
    taskState: TaskState.Live,
    metricDirection: MetricDirection.Maximize,
    ...fields,
  };
}

let nextId = 1000;
/** An accepted result of `miner` with `metric`, decided `daysAgo` days before T. */
function accepted(miner: string, metric: number, daysAgo: number, id = uuid(nextId++)): AcceptedRow {
  return { id, minerHotkey: miner, metric, decidedAt: T - daysAgo * DAY };
}

function best(miner: string, metric: number, daysAgo: number): CurrentBest {
  return { minerHotkey: miner, metricValue: metric, since: T - daysAgo * DAY };
}

function competition(t: ScoringTask, rows: AcceptedRow[], currentBest: CurrentBest | null, ideaRewards: IdeaCredit[] = []): CompetitionData {
  return { task: t, accepted: acceptedResults(rows), best: currentBest, ideaRewards };
}

function policyWith(defaults: Partial<CompetitionPolicy>, overrides: Record<string, Partial<CompetitionPolicy>> = {}): RewardPolicyBody {
  const policy = defaultRewardPolicy();
  const base = policy.competition_defaults;
  return {
    ...policy,
    competition_defaults: { ...base, ...defaults },
    competition_overrides: Object.fromEntries(Object.entries(overrides).map(([key, fields]) => [key, { ...base, ...fields }])),
  };
}

const DISABLED_FLOOR = { accepted_reward_floor_mode: AcceptedRewardFloorMode.Disabled };

function snapshot(policy: RewardPolicyBody, competitions: CompetitionData[], clock = CLOCK): string {
  return computeRewardSnapshot({ clock, policyDocument: policy, competitions });
}

/** The `competitions` array of a snapshot, re-serialised: parsing and printing keep key order and every number. */
function competitionsJson(json: string): string {
  return JSON.stringify((JSON.parse(json) as { competitions: unknown }).competitions);
}

/** `"miners":[…]` of the only competition. */
function minersJson(json: string): string {
  const [only] = (JSON.parse(json) as { competitions: { miners: unknown }[] }).competitions;
  return JSON.stringify(only.miners);
}

const POLICY_FIELDS_DISABLED_FLOOR =
  '"target_pool_id":"main","reward_scope":"competition_only","scoring_mode":"accepted_plus_best","accepted_reward_metric_tolerance":0.000001,' +
  '"accepted_reward_floor_mode":"disabled","accepted_reward_floor_value":null,"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3';

describe('reward snapshot scoring (DECISIONS.md §7)', () => {
  it('writes the whole snapshot: top level, policy, one entry with decayed accepted and best points', () => {
    const json = snapshot(defaultRewardPolicy(), [
      competition(task(1), [accepted('alice', 0.5, 10), accepted('bob', 0.8, 0)], best('bob', 0.8, 0)),
    ]);
    // Two accepted values: below the stddev floor's 3 samples, so both score; bob also holds the best.
    expect(json).toBe(
      '{"generated_at":"2025-01-11T00:00:00.000Z","score_ema_days":10,"competition_count":1,' +
        `"reward_policy":${DEFAULT_POLICY_JSON},` +
        '"competitions":[{"competition_id":"00000000-0000-4000-8000-000000000001","slug":"task-1","title":"Task 1",' +
        '"competition_mode":"standard","weight":1,"target_pool_id":"main","reward_scope":"competition_only",' +
        '"scoring_mode":"accepted_plus_best","accepted_reward_metric_tolerance":0.000001,"accepted_reward_floor_mode":"best_population_stddev",' +
        '"accepted_reward_floor_value":null,"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3,' +
        '"miners":[{"miner_hotkey":"bob","score":2},{"miner_hotkey":"alice","score":0.367879441171}]}]}',
    );
  });

  it('is byte-identical for the same data and generated_at, whatever order the inputs arrive in', () => {
    const rows = [accepted('alice', 0.5, 10), accepted('bob', 0.8, 3), accepted('carol', 0.65, 1)];
    const tasks = [task(2, { slug: 'zeta' }), task(3, { slug: 'alpha' })];
    const first = snapshot(defaultRewardPolicy(), [competition(tasks[0], rows, best('bob', 0.8, 3)), competition(tasks[1], [], null)]);
    const second = snapshot(defaultRewardPolicy(), [competition(tasks[1], [], null), competition(tasks[0], [...rows].reverse(), best('bob', 0.8, 3))]);
    expect(second).toBe(first);
    expect((JSON.parse(first) as { competitions: { slug: string }[] }).competitions.map((c) => c.slug)).toEqual(['alpha', 'zeta']);
  });

  describe('decay exp(-(T - t)/D)', () => {
    it('weighs an event 5 days old by e^-0.5 and one 10 days old by e^-1 with D = 10 days', () => {
      const json = snapshot(policyWith(DISABLED_FLOOR), [competition(task(1), [accepted('alice', 1, 5), accepted('bob', 2, 10)], null)]);
      expect(minersJson(json)).toBe('[{"miner_hotkey":"alice","score":0.606530659713},{"miner_hotkey":"bob","score":0.367879441171}]');
    });

    it('converts days to milliseconds: 12 hours with D = 0.5 days is e^-1, 10 days with D = 2.5 days is e^-4', () => {
      const rows = [accepted('alice', 1, 0.5), accepted('bob', 2, 10)];
      expect(minersJson(snapshot(policyWith(DISABLED_FLOOR), [competition(task(1), rows, null)], { generatedAt: T, scoreEmaDays: 0.5 }))).toBe(
        '[{"miner_hotkey":"alice","score":0.367879441171},{"miner_hotkey":"bob","score":2.06115362244e-9}]',
      );
      expect(minersJson(snapshot(policyWith(DISABLED_FLOOR), [competition(task(1), rows, null)], { generatedAt: T, scoreEmaDays: 2.5 }))).toBe(
        '[{"miner_hotkey":"alice","score":0.818730753078},{"miner_hotkey":"bob","score":0.0183156388887}]',
      );
    });

    it('counts an event stamped after T (clock skew) with its full points, never more', () => {
      const json = snapshot(policyWith(DISABLED_FLOOR), [competition(task(1), [accepted('alice', 1, -1)], best('alice', 1, -1))]);
      expect(minersJson(json)).toBe('[{"miner_hotkey":"alice","score":2}]');
    });
  });

  describe('duplicates', () => {
    it('gives nothing to a result within the tolerance of an earlier accepted one', () => {
      const json = snapshot(policyWith({ ...DISABLED_FLOOR, accepted_reward_metric_tolerance: 0.01 }), [
        competition(task(1), [accepted('alice', 0.5, 10), accepted('bob', 0.505, 0), accepted('carol', 0.52, 0)], best('carol', 0.52, 0)),
      ]);
      // bob's 0.505 is within 0.01 of alice's earlier 0.5; carol's 0.52 is 0.015 from bob and 0.02 from alice.
      expect(minersJson(json)).toBe('[{"miner_hotkey":"carol","score":2},{"miner_hotkey":"alice","score":0.367879441171}]');
    });

    it('decides "earlier" by decided_at, then by submission id', () => {
      const json = snapshot(policyWith(DISABLED_FLOOR), [
        competition(task(1), [accepted('xavier', 0.7, 0, uuid(902)), accepted('yara', 0.7, 0, uuid(901)), accepted('zoe', 0.7, 1)], null),
      ]);
      // zoe was decided a day earlier: both later 0.7s are duplicates of hers, whatever their ids.
      expect(minersJson(json)).toBe('[{"miner_hotkey":"zoe","score":0.904837418036}]');
      const tie = snapshot(policyWith(DISABLED_FLOOR), [competition(task(1), [accepted('xavier', 0.7, 0, uuid(902)), accepted('yara', 0.7, 0, uuid(901))], null)]);
      expect(minersJson(tie)).toBe('[{"miner_hotkey":"yara","score":1}]');
    });

    it('compares with every earlier accepted result, also one that earned nothing itself', () => {
      // 0.5 → 0.509 (duplicate) → 0.518: 0.009 from the unscored 0.509, so a duplicate too.
      const json = snapshot(policyWith({ ...DISABLED_FLOOR, accepted_reward_metric_tolerance: 0.01 }), [
        competition(task(1), [accepted('alice', 0.5, 2), accepted('bob', 0.509, 1), accepted('carol', 0.518, 0)], null),
      ]);
      expect(minersJson(json)).toBe('[{"miner_hotkey":"alice","score":0.818730753078}]');
    });

    it('matches a brute-force check on random data, with the tolerance inclusive', () => {
      let seed = 42;
      const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
      for (let round = 0; round < 50; round++) {
        const n = 1 + Math.floor(random() * 60);
        const metrics = Array.from({ length: n }, () => Math.round(random() * 40) / 8);
        const tolerance = [0, 0.125, 0.25, 1][round % 4];
        const expected = metrics.map((m, i) => (metrics.slice(0, i).some((earlier) => Math.abs(earlier - m) <= tolerance) ? 1 : 0));
        expect(Array.from(duplicateFlags(metrics, n, tolerance))).toEqual(expected);
      }
    });
  });

  describe('floors', () => {
    it('fixed: excludes a result worse than the floor value (minimize), equal passes', () => {
      const policy = policyWith({ accepted_reward_floor_mode: AcceptedRewardFloorMode.Fixed, accepted_reward_floor_value: 2.0 });
      const t = task(1, { metricDirection: MetricDirection.Minimize });
      const json = snapshot(policy, [competition(t, [accepted('alice', 1.9, 0), accepted('bob', 2.1, 0), accepted('carol', 2.0, 0)], best('alice', 1.9, 10))]);
      expect(competitionsJson(json)).toBe(
        '[{"competition_id":"00000000-0000-4000-8000-000000000001","slug":"task-1","title":"Task 1","competition_mode":"standard","weight":1,' +
          '"target_pool_id":"main","reward_scope":"competition_only","scoring_mode":"accepted_plus_best","accepted_reward_metric_tolerance":0.000001,' +
          '"accepted_reward_floor_mode":"fixed","accepted_reward_floor_value":2,"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3,' +
          '"miners":[{"miner_hotkey":"alice","score":1.36787944117},{"miner_hotkey":"carol","score":1}]}]',
      );
    });

    it('fixed with a null value: nothing to compare with, every result passes', () => {
      const policy = policyWith({ accepted_reward_floor_mode: AcceptedRewardFloorMode.Fixed, accepted_reward_floor_value: null });
      const json = snapshot(policy, [competition(task(1), [accepted('alice', 5, 0), accepted('bob', -100, 0)], null)]);
      expect(minersJson(json)).toBe('[{"miner_hotkey":"alice","score":1},{"miner_hotkey":"bob","score":1}]');
    });

    it('best_population_stddev: values 2, 4, 6, 8 have σ = √5; one σ below the best 8 (5.76) excludes 2 and 4', () => {
      const rows = [accepted('a', 2, 0), accepted('b', 4, 0), accepted('c', 6, 0), accepted('d', 8, 0)];
      const policy = (k: number, minSamples = 3): RewardPolicyBody =>
        policyWith({ accepted_reward_floor_mode: AcceptedRewardFloorMode.BestPopulationStddev, accepted_reward_floor_stddevs: k, accepted_reward_floor_min_samples: minSamples });
      expect(minersJson(snapshot(policy(1), [competition(task(1), rows, best('d', 8, 0))]))).toBe(
        '[{"miner_hotkey":"d","score":2},{"miner_hotkey":"c","score":1}]',
      );
      // Two σ (floor 3.53) lets 4 in; 2 stays out.
      expect(minersJson(snapshot(policy(2), [competition(task(1), rows, best('d', 8, 0))]))).toBe(
        '[{"miner_hotkey":"d","score":2},{"miner_hotkey":"b","score":1},{"miner_hotkey":"c","score":1}]',
      );
      // Below min_samples the floor does not apply.
      expect(minersJson(snapshot(policy(1, 5), [competition(task(1), rows, best('d', 8, 0))]))).toBe(
        '[{"miner_hotkey":"d","score":2},{"miner_hotkey":"a","score":1},{"miner_hotkey":"b","score":1},{"miner_hotkey":"c","score":1}]',
      );
    });

    it('best_population_stddev bounds only the worse side, which is above the best when minimizing', () => {
      const rows = [accepted('a', 2, 0), accepted('b', 4, 0), accepted('c', 6, 0), accepted('d', 8, 0), accepted('e', 1.5, 0)];
      // The recorded best (2, e.g. 1.5 fell within its resolution band) is the reference; 1.5 is better and passes.
      // Values 1.5, 2, 4, 6, 8: mean 4.3, σ² = (7.84 + 5.29 + 0.09 + 2.89 + 13.69)/5 = 5.96, σ = 2.441; ceiling 4.44.
      const policy = policyWith({ accepted_reward_floor_stddevs: 1 });
      const t = task(1, { metricDirection: MetricDirection.Minimize });
      expect(minersJson(snapshot(policy, [competition(t, rows, best('a', 2, 0))]))).toBe(
        '[{"miner_hotkey":"a","score":2},{"miner_hotkey":"b","score":1},{"miner_hotkey":"e","score":1}]',
      );
    });

    it('computes the population (not sample) standard deviation', () => {
      expect(populationStdDev([2, 4, 4, 4, 5, 5, 7, 9], 8)).toBe(2);
      expect(populationStdDev([], 0)).toBe(0);
    });
  });

  describe('scoring modes', () => {
    it('best_only: only the decayed +1 of the current best', () => {
      const json = snapshot(policyWith({ scoring_mode: ScoringMode.BestOnly }), [
        competition(task(1, { competitionMode: CompetitionMode.Centerless }), [accepted('alice', 0.5, 0), accepted('bob', 0.8, 10)], best('bob', 0.8, 10), [
          { proposerHotkey: 'alice', implementerHotkey: 'bob', createdAt: T - 10 * DAY },
        ]),
      ]);
      expect(minersJson(json)).toBe('[{"miner_hotkey":"bob","score":0.367879441171}]');
    });

    it('centerless idea credit: +0.5 to the proposer and +0.5 to the implementer of each idea reward', () => {
      const t = task(1, { competitionMode: CompetitionMode.Centerless });
      const json = snapshot(policyWith(DISABLED_FLOOR), [
        competition(t, [accepted('proposer', 0.5, 10), accepted('implementer', 0.9, 0)], best('implementer', 0.9, 0), [
          { proposerHotkey: 'proposer', implementerHotkey: 'implementer', createdAt: T },
        ]),
      ]);
      // implementer: 1 (accepted) + 1 (best) + 0.5; proposer: e^-1 (accepted 10 days ago) + 0.5.
      expect(minersJson(json)).toBe('[{"miner_hotkey":"implementer","score":2.5},{"miner_hotkey":"proposer","score":0.867879441171}]');
    });

    it('gives idea credit only in centerless competitions', () => {
      const json = snapshot(policyWith(DISABLED_FLOOR), [
        competition(task(1), [], null, [{ proposerHotkey: 'proposer', implementerHotkey: 'implementer', createdAt: T }]),
      ]);
      expect(minersJson(json)).toBe('[]');
    });
  });

  describe('policy resolution and entries', () => {
    it('takes an override by slug before one by id, an override by id before the defaults', () => {
      const x = task(1, { slug: 'x-ray' });
      const y = task(2, { slug: 'yankee' });
      const z = task(3, { slug: 'zulu' });
      const policy = policyWith(DISABLED_FLOOR, {
        'x-ray': { ...DISABLED_FLOOR, scoring_mode: ScoringMode.BestOnly, target_pool_id: 'by-slug' },
        [x.id]: { ...DISABLED_FLOOR, weight: 5, target_pool_id: 'x-by-id' },
        [y.id]: { ...DISABLED_FLOOR, weight: 3, target_pool_id: 'y-by-id' },
      });
      const rows = (): AcceptedRow[] => [accepted('alice', 1, 0)];
      const json = snapshot(policy, [competition(x, rows(), best('alice', 1, 0)), competition(y, rows(), best('alice', 1, 0)), competition(z, rows(), best('alice', 1, 0))]);
      const entry = (n: number, slug: string, weight: number, pool: string, mode: string, score: number): string =>
        `{"competition_id":"${uuid(n)}","slug":"${slug}","title":"Task ${n}","competition_mode":"standard","weight":${weight},"target_pool_id":"${pool}",` +
        `"reward_scope":"competition_only","scoring_mode":"${mode}","accepted_reward_metric_tolerance":0.000001,"accepted_reward_floor_mode":"disabled",` +
        `"accepted_reward_floor_value":null,"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3,"miners":[{"miner_hotkey":"alice","score":${score}}]}`;
      expect(competitionsJson(json)).toBe(
        `[${entry(1, 'x-ray', 1, 'by-slug', 'best_only', 1)},${entry(2, 'yankee', 3, 'y-by-id', 'accepted_plus_best', 2)},${entry(3, 'zulu', 1, 'main', 'accepted_plus_best', 2)}]`,
      );
      // The document itself is reported with its overrides sorted by key.
      const overrideKeys = Object.keys((JSON.parse(json) as { reward_policy: { competition_overrides: object } }).reward_policy.competition_overrides);
      expect(overrideKeys).toEqual([x.id, y.id, 'x-ray']);
    });

    it('reports a disabled competition with weight 0 and no miners, and drops a closed task without scores', () => {
      const live = task(1, { slug: 'b-live' });
      const closedScored = task(2, { slug: 'a-closed-scored', taskState: TaskState.Closed });
      const closedEmpty = task(3, { slug: 'c-closed-empty', taskState: TaskState.Closed });
      const policy = policyWith(DISABLED_FLOOR, { 'b-live': { enabled: false, weight: 4 } });
      const json = snapshot(policy, [
        competition(live, [accepted('alice', 1, 0)], best('alice', 1, 0)),
        competition(closedScored, [accepted('bob', 1, 10)], null),
        competition(closedEmpty, [], null),
      ]);
      expect(competitionsJson(json)).toBe(
        '[{"competition_id":"00000000-0000-4000-8000-000000000002","slug":"a-closed-scored","title":"Task 2","competition_mode":"standard","weight":1,' +
          `${POLICY_FIELDS_DISABLED_FLOOR},"miners":[{"miner_hotkey":"bob","score":0.367879441171}]},` +
          '{"competition_id":"00000000-0000-4000-8000-000000000001","slug":"b-live","title":"Task 1","competition_mode":"standard","weight":0,' +
          '"target_pool_id":"main","reward_scope":"competition_only","scoring_mode":"accepted_plus_best","accepted_reward_metric_tolerance":0.000001,' +
          '"accepted_reward_floor_mode":"best_population_stddev","accepted_reward_floor_value":null,"accepted_reward_floor_stddevs":2,"accepted_reward_floor_min_samples":3,"miners":[]}]',
      );
      expect((JSON.parse(json) as { competition_count: number }).competition_count).toBe(2);
    });

    it('orders miners by score descending, then by hotkey in code-unit order', () => {
      const json = snapshot(policyWith(DISABLED_FLOOR), [
        competition(task(1), [accepted('b', 1, 0), accepted('B', 2, 0), accepted('a', 3, 0), accepted('c', 4, 1)], null),
      ]);
      expect(minersJson(json)).toBe(
        '[{"miner_hotkey":"B","score":1},{"miner_hotkey":"a","score":1},{"miner_hotkey":"b","score":1},{"miner_hotkey":"c","score":0.904837418036}]',
      );
    });
  });

  describe('rounding', () => {
    it('rounds to 12 significant digits and prints the shortest form', () => {
      expect(JSON.stringify(roundScore(0.1 + 0.2))).toBe('0.3');
      expect(roundScore(1 + Math.exp(-1))).toBe(1.36787944117);
      expect(JSON.stringify(roundScore(123456.78901234567))).toBe('123456.789012');
      expect(JSON.stringify(roundScore(2 / 3))).toBe('0.666666666667');
    });
  });
});

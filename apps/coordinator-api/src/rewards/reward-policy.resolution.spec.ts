import { encodeAddress } from '@polkadot/util-crypto';
import { AcceptedRewardFloorMode, CompetitionPolicyDto, PoolPolicyDto, ScoringMode, UpdateRewardPolicyDto } from '@rcs/contracts';
import { SPEC_COMPETITION_DEFAULTS } from '@rcs/testing';
import { CompetitionPolicy, defaultRewardPolicy, RewardPolicyBody, rewardPolicyBody } from './reward-policy.defaults';
import { resolveCompetitionPolicy } from './reward-policy.resolution';

const TASK = { id: '6f1c1a52-5d43-4f55-9a43-0d3f5f0f1b11', slug: 'nanogpt-speedrun' };

function competition(fields: Partial<CompetitionPolicy>): CompetitionPolicy {
  return { ...defaultRewardPolicy().competition_defaults, ...fields };
}

function policy(overrides: Record<string, CompetitionPolicy>, defaults: Partial<CompetitionPolicy> = {}): RewardPolicyBody {
  return { ...defaultRewardPolicy(), competition_defaults: competition(defaults), competition_overrides: overrides };
}

describe('resolveCompetitionPolicy', () => {
  it('takes the override keyed by slug over the one keyed by id', () => {
    const document = policy({ [TASK.id]: competition({ weight: 2 }), [TASK.slug]: competition({ weight: 3 }) }, { weight: 4 });
    expect(resolveCompetitionPolicy(document, TASK).weight).toBe(3);
  });

  it('takes the override keyed by id when none is keyed by slug', () => {
    const document = policy({ [TASK.id]: competition({ weight: 2 }), 'other-task': competition({ weight: 5 }) }, { weight: 4 });
    expect(resolveCompetitionPolicy(document, TASK).weight).toBe(2);
  });

  it('falls back to competition_defaults without an override of the task', () => {
    const document = policy({ 'other-task': competition({ weight: 5 }) }, { weight: 4, scoring_mode: ScoringMode.BestOnly });
    expect(resolveCompetitionPolicy(document, TASK)).toEqual(competition({ weight: 4, scoring_mode: ScoringMode.BestOnly }));
  });

  it('takes an override whole: its fields are never merged with competition_defaults', () => {
    const override = competition({ scoring_mode: ScoringMode.BestOnly });
    const document = policy({ [TASK.slug]: override }, { weight: 7, accepted_reward_floor_mode: AcceptedRewardFloorMode.Disabled });
    expect(resolveCompetitionPolicy(document, TASK)).toEqual(override);
    expect(resolveCompetitionPolicy(document, TASK).weight).toBe(1);
  });

  it('resolves a disabled competition as enabled: false, from an override or from the defaults', () => {
    expect(resolveCompetitionPolicy(policy({ [TASK.slug]: competition({ enabled: false }) }), TASK).enabled).toBe(false);
    expect(resolveCompetitionPolicy(policy({}, { enabled: false }), TASK).enabled).toBe(false);
    expect(resolveCompetitionPolicy(policy({ [TASK.id]: competition({ enabled: true }) }, { enabled: false }), TASK).enabled).toBe(true);
  });

  it('never finds Object.prototype members for slugs such as constructor or __proto__', () => {
    for (const slug of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(resolveCompetitionPolicy(policy({}, { weight: 9 }), { id: TASK.id, slug })).toEqual(competition({ weight: 9 }));
    }
    // A real entry under such a key (JSON bodies make own properties) is found like any other.
    const overrides = JSON.parse('{"__proto__": {"weight": 3}}') as Record<string, CompetitionPolicy>;
    expect(resolveCompetitionPolicy(policy(overrides), { id: TASK.id, slug: '__proto__' }).weight).toBe(3);
  });

  it('returns a copy, so changing the result leaves the document alone', () => {
    const document = policy({}, { weight: 4 });
    const resolved = resolveCompetitionPolicy(document, TASK);
    resolved.weight = 100;
    expect(document.competition_defaults.weight).toBe(4);
  });

  it('returns every competition field', () => {
    const keys = Object.keys(new CompetitionPolicyDto()).sort();
    expect(Object.keys(resolveCompetitionPolicy(defaultRewardPolicy(), TASK)).sort()).toEqual(keys);
  });
});

describe('defaultRewardPolicy and rewardPolicyBody', () => {
  it('are the spec defaults at version 1', () => {
    expect(defaultRewardPolicy()).toEqual({
      version: 1,
      pools: [],
      validator_weights: { mode: 'local', targets: [], version_key: 1337 },
      local_competition: competition({}),
      competition_defaults: competition({}),
      competition_overrides: {},
    });
    expect(competition({})).toEqual(SPEC_COMPETITION_DEFAULTS);
  });

  it('serialise the same policy to the same JSON whatever the key order it arrived in', () => {
    const a = policy({ zeta: competition({ weight: 1 }), alpha: competition({ weight: 2 }) });
    const reversed = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).reverse()) as T;
    const b: RewardPolicyBody = reversed({
      ...a,
      competition_overrides: { alpha: competition({ weight: 2 }), zeta: competition({ weight: 1 }) },
      competition_defaults: reversed(a.competition_defaults),
    });
    expect(JSON.stringify(b)).not.toBe(JSON.stringify(a));
    expect(JSON.stringify(rewardPolicyBody(b))).toBe(JSON.stringify(rewardPolicyBody(a)));
    expect(Object.keys(rewardPolicyBody(b).competition_overrides)).toEqual(['alpha', 'zeta']);
  });

  it('drop fields that are not policy fields, such as updatedAt', () => {
    const document = { ...defaultRewardPolicy(), updatedAt: new Date(0) };
    expect(rewardPolicyBody(document)).not.toHaveProperty('updatedAt');
    expect(rewardPolicyBody(new UpdateRewardPolicyDto())).toEqual(defaultRewardPolicy());
  });
});

describe('rewardPolicyBody: hotkeys', () => {
  it('writes hotkeys that are SS58 addresses in their canonical spelling, and keeps other text as given', () => {
    const key = new Uint8Array(32).fill(9);
    const body = defaultRewardPolicy();
    body.validator_weights.targets = [
      { uid: null, hotkey: encodeAddress(key, 2), weight: 1 },
      { uid: null, hotkey: 'not-an-address', weight: 1 },
    ];
    body.pools = [{ ...new PoolPolicyDto(), pool_id: 'main', label: 'Main', contract_hotkey: encodeAddress(key, 7) }];
    const written = rewardPolicyBody(body);
    expect(written.validator_weights.targets.map((target) => target.hotkey)).toEqual([encodeAddress(key, 42), 'not-an-address']);
    expect(written.pools[0].contract_hotkey).toBe(encodeAddress(key, 42));
  });
});

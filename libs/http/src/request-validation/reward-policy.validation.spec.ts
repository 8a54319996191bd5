import {
  CompetitionPolicyDto,
  ContractHotkeyMode,
  ScoringMode,
  UpdateRewardPolicyDto,
  ValidatorWeightsMode,
} from '@rcs/contracts';
import { SPEC_COMPETITION_DEFAULTS } from '@rcs/testing';
import { accept, expectBounds, reject, text } from './pipe.test-helpers';

const pool = { pool_id: 'main', label: 'Main pool' };

const locs = async (value: unknown) => (await reject(UpdateRewardPolicyDto, value)).map((item) => [item.type, item.loc]);

describe('UpdateRewardPolicyDto', () => {
  it('fills the whole document with defaults', async () => {
    expect(await accept(UpdateRewardPolicyDto, {})).toEqual({
      version: 1,
      pools: [],
      validator_weights: { mode: ValidatorWeightsMode.Local, targets: [], version_key: 1337 },
      local_competition: SPEC_COMPETITION_DEFAULTS,
      competition_defaults: SPEC_COMPETITION_DEFAULTS,
      competition_overrides: {},
    });
  });

  it('bounds version to integers >= 1', () =>
    expectBounds(UpdateRewardPolicyDto, {}, 'version', [
      { value: 0, error: { type: 'greater_than_equal', ctx: { ge: 1 } } },
      { value: 1 },
      { value: 42 },
      { value: '2', error: { type: 'int_type' } },
    ]));

  it('rejects unknown properties at the top level', async () => {
    expect(await locs({ updated_at: '2026-01-01T00:00:00Z' })).toEqual([['extra_forbidden', ['body', 'updated_at']]]);
  });

  describe('pools', () => {
    it('builds pool policies with their defaults', async () => {
      const policy = await accept(UpdateRewardPolicyDto, { pools: [pool] });
      expect(policy.pools).toEqual([
        { ...pool, enabled: true, contract_hotkey_mode: ContractHotkeyMode.MainContract, contract_hotkey: null, contract_address: null },
      ]);
    });

    it('rejects unknown properties inside pools[]', async () => {
      expect(await reject(UpdateRewardPolicyDto, { pools: [pool, { ...pool, pool_id: 'b', share: 0.5 }] })).toEqual([
        { type: 'extra_forbidden', loc: ['body', 'pools', 1, 'share'], msg: 'Extra inputs are not permitted', input: 0.5 },
      ]);
    });

    it('bounds pool_id to 1..120 and label to 1..255 characters', async () => {
      for (const [field, min, max] of [['pool_id', 1, 120], ['label', 1, 255]] as const) {
        expect(await locs({ pools: [{ ...pool, [field]: text(min - 1) }] })).toEqual([['string_too_short', ['body', 'pools', 0, field]]]);
        expect((await accept(UpdateRewardPolicyDto, { pools: [{ ...pool, [field]: text(max) }] })).pools[0]).toMatchObject({ [field]: text(max) });
        expect(await reject(UpdateRewardPolicyDto, { pools: [{ ...pool, [field]: text(max + 1) }] })).toMatchObject([
          { type: 'string_too_long', loc: ['body', 'pools', 0, field], ctx: { max_length: max } },
        ]);
      }
    });

    it('bounds contract_hotkey and contract_address to 128 characters', async () => {
      for (const field of ['contract_hotkey', 'contract_address']) {
        expect((await accept(UpdateRewardPolicyDto, { pools: [{ ...pool, [field]: text(128) }] })).pools[0]).toMatchObject({ [field]: text(128) });
        expect(await locs({ pools: [{ ...pool, [field]: text(129) }] })).toEqual([['string_too_long', ['body', 'pools', 0, field]]]);
      }
    });

    it('checks enabled and contract_hotkey_mode types', async () => {
      expect(await locs({ pools: [{ ...pool, enabled: 'yes' }] })).toEqual([['bool_type', ['body', 'pools', 0, 'enabled']]]);
      expect(await reject(UpdateRewardPolicyDto, { pools: [{ ...pool, contract_hotkey_mode: 'own' }] })).toMatchObject([
        { type: 'enum', loc: ['body', 'pools', 0, 'contract_hotkey_mode'], ctx: { expected: "'main_contract' or 'dedicated_contract'" } },
      ]);
    });

    it('reports a pool that is not an object at its index, and a non-list pools', async () => {
      expect(await locs({ pools: [pool, 'main'] })).toEqual([['model_type', ['body', 'pools', 1]]]);
      expect(await locs({ pools: [[pool]] })).toEqual([['model_type', ['body', 'pools', 0]]]);
      expect(await locs({ pools: pool })).toEqual([['list_type', ['body', 'pools']]]);
    });

    it('refuses duplicate pool ids and more than 64 pools', async () => {
      expect(await reject(UpdateRewardPolicyDto, { pools: [pool, { ...pool }] })).toEqual([
        { type: 'value_error', loc: ['body', 'pools'], msg: 'Value error, pool_id must be unique across pools', input: [expect.anything(), expect.anything()] },
      ]);
      const pools = Array.from({ length: 65 }, (_, i) => ({ pool_id: `p${i}`, label: 'l' }));
      expect(await reject(UpdateRewardPolicyDto, { pools })).toMatchObject([
        { type: 'too_long', loc: ['body', 'pools'], ctx: { field_type: 'List', max_length: 64, actual_length: 65 } },
      ]);
      expect((await accept(UpdateRewardPolicyDto, { pools: pools.slice(0, 64) })).pools).toHaveLength(64);
    });
  });

  describe.each(['local_competition', 'competition_defaults'])('%s', (field) => {
    const at = (property: string) => ['body', field, property];

    it('keeps given values and fills the rest', async () => {
      const policy = (await accept(UpdateRewardPolicyDto, { [field]: { weight: 2.5, scoring_mode: 'best_only' } })) as unknown as Record<string, unknown>;
      expect(policy[field]).toBeInstanceOf(CompetitionPolicyDto);
      expect(policy[field]).toEqual({ ...SPEC_COMPETITION_DEFAULTS, weight: 2.5, scoring_mode: ScoringMode.BestOnly });
    });

    it('rejects unknown nested properties', async () => {
      expect(await reject(UpdateRewardPolicyDto, { [field]: { weight: 1, bonus: true } })).toEqual([
        { type: 'extra_forbidden', loc: at('bonus'), msg: 'Extra inputs are not permitted', input: true },
      ]);
    });

    it('bounds every number of the competition policy', async () => {
      const ge = (bound: number) => ({ type: 'greater_than_equal', ctx: { ge: bound } });
      const cases: [string, unknown, Record<string, unknown> | null][] = [
        ['weight', -0.5, ge(0)],
        ['weight', 0, null],
        ['accepted_reward_metric_tolerance', -1e-9, ge(0)],
        ['accepted_reward_metric_tolerance', 0, null],
        ['accepted_reward_floor_stddevs', -1, ge(0)],
        ['accepted_reward_floor_stddevs', 0, null],
        ['accepted_reward_floor_min_samples', 0, ge(1)],
        ['accepted_reward_floor_min_samples', 1, null],
        ['accepted_reward_floor_min_samples', 2.5, { type: 'int_type' }],
        ['accepted_reward_floor_value', null, null],
        ['accepted_reward_floor_value', -3.5, null],
        ['accepted_reward_floor_value', 'low', { type: 'float_type' }],
        ['weight', '1', { type: 'float_type' }],
        ['enabled', 0, { type: 'bool_type' }],
      ];
      for (const [property, value, error] of cases) {
        if (error) {
          expect(await reject(UpdateRewardPolicyDto, { [field]: { [property]: value } })).toMatchObject([{ ...error, loc: at(property) }]);
        } else {
          const policy = (await accept(UpdateRewardPolicyDto, { [field]: { [property]: value } })) as unknown as Record<string, Record<string, unknown>>;
          expect(policy[field]?.[property]).toBe(value);
        }
      }
    });

    it('bounds target_pool_id to 1..120 characters', async () => {
      expect(await locs({ [field]: { target_pool_id: '' } })).toEqual([['string_too_short', at('target_pool_id')]]);
      expect(await locs({ [field]: { target_pool_id: text(121) } })).toEqual([['string_too_long', at('target_pool_id')]]);
      const policy = (await accept(UpdateRewardPolicyDto, { [field]: { target_pool_id: text(120) } })) as unknown as Record<string, Record<string, unknown>>;
      expect(policy[field]?.['target_pool_id']).toBe(text(120));
    });

    it('restricts the policy enums', async () => {
      expect(await reject(UpdateRewardPolicyDto, { [field]: { reward_scope: 'all' } })).toMatchObject([
        { type: 'enum', loc: at('reward_scope'), ctx: { expected: "'competition_only' or 'shared_pool'" } },
      ]);
      expect(await reject(UpdateRewardPolicyDto, { [field]: { accepted_reward_floor_mode: 'median' } })).toMatchObject([
        { type: 'enum', loc: at('accepted_reward_floor_mode'), ctx: { expected: "'disabled', 'fixed' or 'best_population_stddev'" } },
      ]);
    });

    it('reports a value that is not an object as model_type', async () => {
      expect(await locs({ [field]: 'default' })).toEqual([['model_type', ['body', field]]]);
      expect(await locs({ [field]: [] })).toEqual([['model_type', ['body', field]]]);
      expect(await locs({ [field]: null })).toEqual([['model_type', ['body', field]]]);
    });
  });

  describe('competition_overrides', () => {
    it('builds every entry as a competition policy with defaults', async () => {
      const policy = await accept(UpdateRewardPolicyDto, { competition_overrides: { 'tiny-lm': { weight: 3 }, 'task-id-7': {} } });
      expect(policy.competition_overrides['tiny-lm']).toBeInstanceOf(CompetitionPolicyDto);
      expect(policy.competition_overrides).toEqual({ 'tiny-lm': { ...SPEC_COMPETITION_DEFAULTS, weight: 3 }, 'task-id-7': SPEC_COMPETITION_DEFAULTS });
    });

    it('rejects unknown properties inside a record entry', async () => {
      expect(await reject(UpdateRewardPolicyDto, { competition_overrides: { 'tiny-lm': { weight: 3, boost: 2 } } })).toEqual([
        { type: 'extra_forbidden', loc: ['body', 'competition_overrides', 'tiny-lm', 'boost'], msg: 'Extra inputs are not permitted', input: 2 },
      ]);
    });

    it('reports bound violations inside entries with the entry key in loc', async () => {
      const items = await reject(UpdateRewardPolicyDto, {
        competition_overrides: { a: { weight: -1 }, b: { weight: 1 }, c: { accepted_reward_floor_min_samples: 0, scoring_mode: 'x' } },
      });
      expect(items.map((item) => [item.type, item.loc])).toEqual([
        ['greater_than_equal', ['body', 'competition_overrides', 'a', 'weight']],
        ['enum', ['body', 'competition_overrides', 'c', 'scoring_mode']],
        ['greater_than_equal', ['body', 'competition_overrides', 'c', 'accepted_reward_floor_min_samples']],
      ]);
    });

    it('reports an entry that is not an object, and a record that is not an object', async () => {
      expect(await locs({ competition_overrides: { a: 5, b: [] } })).toEqual([
        ['model_type', ['body', 'competition_overrides', 'a']],
        ['model_type', ['body', 'competition_overrides', 'b']],
      ]);
      expect(await locs({ competition_overrides: [] })).toEqual([['dict_type', ['body', 'competition_overrides']]]);
      expect(await locs({ competition_overrides: 'none' })).toEqual([['dict_type', ['body', 'competition_overrides']]]);
    });
  });

  describe('validator_weights', () => {
    const weights = (value: Record<string, unknown>) => ({ validator_weights: value });
    const target = (index: number, property?: string) =>
      property === undefined ? ['body', 'validator_weights', 'targets', index] : ['body', 'validator_weights', 'targets', index, property];

    it('accepts uid or hotkey targets', async () => {
      const policy = await accept(UpdateRewardPolicyDto, weights({ mode: 'targets', targets: [{ uid: 0, weight: 1 }, { hotkey: '5Fhotkey', weight: 0.5 }] }));
      expect(policy.validator_weights).toEqual({
        mode: ValidatorWeightsMode.Targets,
        targets: [
          { uid: 0, hotkey: null, weight: 1 },
          { uid: null, hotkey: '5Fhotkey', weight: 0.5 },
        ],
        version_key: 1337,
      });
    });

    it('requires exactly one of uid and hotkey per target', async () => {
      const expected = {
        type: 'exactly_one_required',
        loc: target(0),
        msg: 'Value error, exactly one of uid, hotkey must be set',
        ctx: { fields: ['uid', 'hotkey'] },
      };
      expect(await reject(UpdateRewardPolicyDto, weights({ targets: [{ weight: 1 }] }))).toEqual([expected]);
      expect(await reject(UpdateRewardPolicyDto, weights({ targets: [{ uid: 1, hotkey: '5F', weight: 1 }] }))).toEqual([expected]);
    });

    it('bounds uid to 0..65535 and weight to > 0', async () => {
      expect(await reject(UpdateRewardPolicyDto, weights({ targets: [{ uid: -1, weight: 1 }] }))).toMatchObject([
        { type: 'greater_than_equal', loc: target(0, 'uid'), ctx: { ge: 0 } },
      ]);
      expect(await reject(UpdateRewardPolicyDto, weights({ targets: [{ uid: 65536, weight: 1 }] }))).toMatchObject([
        { type: 'less_than_equal', loc: target(0, 'uid'), ctx: { le: 65535 } },
      ]);
      expect((await accept(UpdateRewardPolicyDto, weights({ targets: [{ uid: 65535, weight: 1e-9 }] }))).validator_weights.targets).toHaveLength(1);
      expect(await reject(UpdateRewardPolicyDto, weights({ targets: [{ uid: 1, weight: 0 }] }))).toEqual([
        { type: 'greater_than', loc: target(0, 'weight'), msg: 'Input should be greater than 0', input: 0, ctx: { gt: 0 } },
      ]);
      expect(await locs(weights({ targets: [{ uid: 1 }] }))).toEqual([['missing', target(0, 'weight')]]);
      expect(await locs(weights({ targets: [{ hotkey: '', weight: 1 }] }))).toEqual([['string_too_short', target(0, 'hotkey')]]);
    });

    it('rejects unknown properties in validator_weights and in targets', async () => {
      expect(await locs(weights({ burn: true }))).toEqual([['extra_forbidden', ['body', 'validator_weights', 'burn']]]);
      expect(await locs(weights({ targets: [{ uid: 1, weight: 1, note: 'x' }] }))).toEqual([['extra_forbidden', target(0, 'note')]]);
    });

    it('checks mode and version_key', async () => {
      expect(await reject(UpdateRewardPolicyDto, weights({ mode: 'burn' }))).toMatchObject([
        { type: 'enum', loc: ['body', 'validator_weights', 'mode'], ctx: { expected: "'local', 'burn_uid0' or 'targets'" } },
      ]);
      expect(await locs(weights({ version_key: -1 }))).toEqual([['greater_than_equal', ['body', 'validator_weights', 'version_key']]]);
      expect(await locs(weights({ version_key: 1.5 }))).toEqual([['int_type', ['body', 'validator_weights', 'version_key']]]);
      expect((await accept(UpdateRewardPolicyDto, weights({ version_key: 0 }))).validator_weights.version_key).toBe(0);
    });
  });

  it('reports violations at every level in one answer', async () => {
    expect(
      await locs({
        version: 0,
        pools: [{ pool_id: 'main', label: 'Main', x: 1 }],
        competition_overrides: { t: { y: 2 } },
        validator_weights: { targets: [{ uid: 1, weight: 1, z: 3 }] },
      }),
    ).toEqual([
      ['greater_than_equal', ['body', 'version']],
      ['extra_forbidden', ['body', 'pools', 0, 'x']],
      ['extra_forbidden', ['body', 'validator_weights', 'targets', 0, 'z']],
      ['extra_forbidden', ['body', 'competition_overrides', 't', 'y']],
    ]);
  });
});

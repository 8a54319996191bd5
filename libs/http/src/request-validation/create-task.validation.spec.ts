import { CompetitionMode, CreateTaskDto, RankingMode } from '@rcs/contracts';
import { SPEC_TASK_METRIC_DEFAULTS } from '@rcs/testing';
import { accept, expectBounds, ge, lengthBounds, rangeBounds, reject, text, tooLong, tooShort } from './pipe.test-helpers';

const valid = {
  slug: 'tiny-lm',
  title: 'Tiny LM',
  repository: 'https://example.org/org/repo.git',
  base_ref: 'main',
  benchmark_command: 'python bench.py',
  metric_name: 'heldout_ppl',
  metric_direction: 'minimize',
  time_budget_seconds: 21600,
};


describe('CreateTaskDto', () => {
  it('fills every default of the spec and DECISIONS §3', async () => {
    const task = await accept(CreateTaskDto, valid);
    expect(task).toEqual({
      ...valid,
      brief: null,
      onboard_md: null,
      setup_command: null,
      result_path: null,
      allowed_patch_paths: [],
      max_patch_bytes: 262144,
      ranking_mode: RankingMode.Scalar,
      ...SPEC_TASK_METRIC_DEFAULTS,
      validator_benchmark_env: {},
      competition_mode: CompetitionMode.Centerless,
      min_peer_evaluations: 2,
      heldout_rotation_seconds: null,
      heldout_budget: null,
    });
  });

  it('takes heldout_rotation_seconds as null or 1 s .. a year (DECISIONS §15)', async () => {
    expect(await accept(CreateTaskDto, { ...valid, heldout_rotation_seconds: 3600 })).toMatchObject({ heldout_rotation_seconds: 3600 });
    const items = async (value: unknown) => (await reject(CreateTaskDto, { ...valid, heldout_rotation_seconds: value })).map((item) => [item.type, item.loc.join('.')]);
    expect(await items(0)).toEqual([['greater_than_equal', 'body.heldout_rotation_seconds']]);
    expect(await items(31_536_001)).toEqual([['less_than_equal', 'body.heldout_rotation_seconds']]);
  });

  it('takes heldout_budget as null or {enabled, step > 0 | null, bits 16..1e6 | null, delta in (0, 0.5]} (DECISIONS §17)', async () => {
    expect(await accept(CreateTaskDto, { ...valid, heldout_budget: {} })).toMatchObject({ heldout_budget: { enabled: true, step: null, bits: null, delta: 0.05 } });
    expect(await accept(CreateTaskDto, { ...valid, heldout_budget: { step: 0.025, bits: 64 } })).toMatchObject({ heldout_budget: { step: 0.025, bits: 64 } });
    const items = async (heldout_budget: unknown) => (await reject(CreateTaskDto, { ...valid, heldout_budget })).map((item) => [item.type, item.loc.join('.')]);
    expect(await items({ step: 0 })).toEqual([['greater_than_equal', 'body.heldout_budget.step']]);
    expect(await items({ bits: 15 })).toEqual([['greater_than_equal', 'body.heldout_budget.bits']]);
    expect(await items({ bits: 16.5 })).toEqual([['int_type', 'body.heldout_budget.bits']]);
    expect(await items({ delta: 0.6 })).toEqual([['less_than_equal', 'body.heldout_budget.delta']]);
    expect(await items({ enabled: 'yes' })).toEqual([['bool_type', 'body.heldout_budget.enabled']]);
    expect(await items({ k: 1 })).toEqual([['extra_forbidden', 'body.heldout_budget.k']]);
  });

  it('takes hardware as null or {gpu_count 0..64, gpu_memory_gb 0..4096 (default 0)}, nothing else', async () => {
    expect(await accept(CreateTaskDto, { ...valid, hardware: { gpu_count: 1 } })).toMatchObject({ hardware: { gpu_count: 1, gpu_memory_gb: 0 } });
    expect(await accept(CreateTaskDto, { ...valid, hardware: { gpu_count: 8, gpu_memory_gb: 79.5 } })).toMatchObject({ hardware: { gpu_count: 8, gpu_memory_gb: 79.5 } });
    const items = async (hardware: unknown) => (await reject(CreateTaskDto, { ...valid, hardware })).map((item) => [item.type, item.loc.join('.')]);
    expect(await items({})).toEqual([['missing', 'body.hardware.gpu_count']]);
    expect(await items({ gpu_count: -1 })).toEqual([['greater_than_equal', 'body.hardware.gpu_count']]);
    expect(await items({ gpu_count: 65 })).toEqual([['less_than_equal', 'body.hardware.gpu_count']]);
    expect(await items({ gpu_count: 1, gpu_memory_gb: 4097 })).toEqual([['less_than_equal', 'body.hardware.gpu_memory_gb']]);
    expect(await items({ gpu_count: 1, vram: 8 })).toEqual([['extra_forbidden', 'body.hardware.vram']]);
    expect(await items(2)).toEqual([['model_type', 'body.hardware']]);
  });

  it('bounds slug to 3..120 characters', () =>
    expectBounds(CreateTaskDto, valid, 'slug', [
      ...lengthBounds(3, 120),
      { value: 7, error: { type: 'string_type' } },
      { value: null, error: { type: 'string_type' } },
    ]));

  it('bounds title to 3..255 characters', () =>
    expectBounds(CreateTaskDto, valid, 'title', lengthBounds(3, 255)));

  it('bounds brief to 20000 characters and allows null', () =>
    expectBounds(CreateTaskDto, valid, 'brief', [{ value: null }, { value: text(20000) }, { value: text(20001), error: tooLong(20000) }]));

  it('bounds onboard_md to 40000 characters', () =>
    expectBounds(CreateTaskDto, valid, 'onboard_md', [{ value: null }, { value: text(40000) }, { value: text(40001), error: tooLong(40000) }]));

  it('requires a non-empty repository and benchmark_command', async () => {
    await expectBounds(CreateTaskDto, valid, 'repository', [{ value: '', error: tooShort(1) }, { value: 'r' }]);
    await expectBounds(CreateTaskDto, valid, 'benchmark_command', [{ value: '', error: tooShort(1) }, { value: 'b' }]);
  });

  it('bounds base_ref to 1..255 characters', () =>
    expectBounds(CreateTaskDto, valid, 'base_ref', [
      { value: '', error: tooShort(1) },
      { value: 'a' },
      { value: text(255) },
      { value: text(256), error: tooLong(255) },
    ]));

  it('accepts a null or string setup_command only', () =>
    expectBounds(CreateTaskDto, valid, 'setup_command', [{ value: null }, { value: 'pip install -e .' }, { value: 3, error: { type: 'string_type' } }]));

  it('bounds result_path to 1000 characters', () =>
    expectBounds(CreateTaskDto, valid, 'result_path', [{ value: text(1000) }, { value: text(1001), error: tooLong(1000) }]));

  it('bounds allowed_patch_paths to 64 repository-relative globs', () =>
    expectBounds(CreateTaskDto, valid, 'allowed_patch_paths', [
      { value: ['pack/train.py', 'src/**/*.py', 'a?c/*'] },
      { value: Array.from({ length: 64 }, (_, i) => `p${i}/*`) },
      {
        value: Array.from({ length: 65 }, (_, i) => `p${i}/*`),
        error: { type: 'too_long', ctx: { field_type: 'List', max_length: 64, actual_length: 65 } },
      },
      { value: 'src/*', error: { type: 'list_type' } },
      { value: ['ok/*', ''], error: { type: 'string_too_short', loc: ['body', 'allowed_patch_paths', 1], ctx: { min_length: 1 } } },
      { value: ['/etc/passwd'], error: { type: 'repo_glob_invalid', loc: ['body', 'allowed_patch_paths', 0], ctx: { reason: 'absolute' } } },
      { value: ['a/../b'], error: { type: 'repo_glob_invalid', loc: ['body', 'allowed_patch_paths', 0], ctx: { reason: 'parent_segment' } } },
      { value: ['..'], error: { type: 'repo_glob_invalid', loc: ['body', 'allowed_patch_paths', 0], ctx: { reason: 'parent_segment' } } },
      { value: ['a\\b'], error: { type: 'repo_glob_invalid', loc: ['body', 'allowed_patch_paths', 0], ctx: { reason: 'backslash' } } },
      { value: [text(1000)] },
      { value: [text(1001)], error: { type: 'string_too_long', loc: ['body', 'allowed_patch_paths', 0], ctx: { max_length: 1000 } } },
      { value: [5], error: { type: 'string_type', loc: ['body', 'allowed_patch_paths', 0] } },
    ]));

  it('reports every bad glob at its own index', async () => {
    const items = await reject(CreateTaskDto, { ...valid, allowed_patch_paths: ['ok/*', '/abs', 'fine', '../up'] });
    expect(items.map((item) => item.loc)).toEqual([
      ['body', 'allowed_patch_paths', 1],
      ['body', 'allowed_patch_paths', 3],
    ]);
    expect(items[0]).toEqual({
      type: 'repo_glob_invalid',
      loc: ['body', 'allowed_patch_paths', 1],
      msg: "Path pattern should be repository-relative: it must not start with '/'",
      input: '/abs',
      ctx: { reason: 'absolute' },
    });
  });

  it('bounds max_patch_bytes to 1..1048576 integers', () =>
    expectBounds(CreateTaskDto, valid, 'max_patch_bytes', [
      ...rangeBounds(1, 1048576),
      { value: 1.5, error: { type: 'int_type' } },
      { value: '10', error: { type: 'int_type' } },
    ]));

  it('bounds metric_name to 1..120 and secondary_metric_name to 120 characters', async () => {
    await expectBounds(CreateTaskDto, valid, 'metric_name', [
      { value: '', error: tooShort(1) },
      { value: 'a' },
      { value: text(120) },
      { value: text(121), error: tooLong(120) },
    ]);
    await expectBounds(CreateTaskDto, valid, 'secondary_metric_name', [{ value: null }, { value: text(120) }, { value: text(121), error: tooLong(120) }]);
  });

  it('restricts directions and modes to their enums', async () => {
    const expected = "'maximize' or 'minimize'";
    await expectBounds(CreateTaskDto, valid, 'metric_direction', [{ value: 'maximize' }, { value: 'up', error: { type: 'enum', ctx: { expected } } }]);
    await expectBounds(CreateTaskDto, valid, 'secondary_metric_direction', [{ value: null }, { value: 'down', error: { type: 'enum', ctx: { expected } } }]);
    await expectBounds(CreateTaskDto, valid, 'ranking_mode', [{ value: 'pareto' }, { value: 'best', error: { type: 'enum', ctx: { expected: "'scalar' or 'pareto'" } } }]);
    await expectBounds(CreateTaskDto, valid, 'competition_mode', [
      { value: 'peer_evaluation' },
      { value: 'solo', error: { type: 'enum', ctx: { expected: "'standard', 'centerless' or 'peer_evaluation'" } } },
    ]);
    await expectBounds(CreateTaskDto, valid, 'metric_resolution_mode', [{ value: 'log' }, { value: 'ln', error: { type: 'enum' } }]);
  });

  it('gives the enum item a pydantic message', async () => {
    expect(await reject(CreateTaskDto, { ...valid, metric_direction: 'up' })).toEqual([
      {
        type: 'enum',
        loc: ['body', 'metric_direction'],
        msg: "Input should be 'maximize' or 'minimize'",
        input: 'up',
        ctx: { expected: "'maximize' or 'minimize'" },
      },
    ]);
  });

  it('bounds validator_benchmark_env to 64 string values', () =>
    expectBounds(CreateTaskDto, valid, 'validator_benchmark_env', [
      { value: { HELDOUT_SHARD: 'shard-7' } },
      { value: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`K${i}`, 'v'])) },
      {
        value: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`K${i}`, 'v'])),
        error: { type: 'too_long', ctx: { field_type: 'Dictionary', max_length: 64, actual_length: 65 } },
      },
      { value: { SEED: 7 }, error: { type: 'string_type', loc: ['body', 'validator_benchmark_env', 'SEED'] } },
      { value: ['a'], error: { type: 'dict_type' } },
      { value: 'A=1', error: { type: 'dict_type' } },
    ]));

  it('refuses env names that JavaScript objects already have, instead of dropping them', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString']) {
      const env = JSON.parse(`{"${name}": "v", "SEED": "7"}`) as Record<string, string>;
      const items = await reject(CreateTaskDto, { ...valid, validator_benchmark_env: env });
      expect({ name, items }).toMatchObject({ name, items: [{ type: 'extra_forbidden', loc: ['body', 'validator_benchmark_env', name], input: 'v' }] });
    }
  });

  it('refuses top-level properties named like Object.prototype members', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf']) {
      const body = JSON.parse(`{"${name}": {"x": 1}}`) as Record<string, unknown>;
      const items = await reject(CreateTaskDto, { ...valid, ...body });
      expect({ name, items }).toMatchObject({ name, items: [{ type: 'extra_forbidden', loc: ['body', name] }] });
    }
  });

  it('bounds min_peer_evaluations to 1..20', () =>
    expectBounds(CreateTaskDto, valid, 'min_peer_evaluations', rangeBounds(1, 20)));

  it('bounds time_budget_seconds to 1..86400', () =>
    expectBounds(CreateTaskDto, valid, 'time_budget_seconds', [
      ...rangeBounds(1, 86400),
      { value: undefined, error: { type: 'missing' } },
    ]));

  it('requires metric_resolution to be a finite number >= 0', () =>
    expectBounds(CreateTaskDto, valid, 'metric_resolution', [
      { value: -0.01, error: ge(0) },
      { value: 0 },
      { value: 0.02 },
      { value: '0.02', error: { type: 'float_type' } },
      { value: Infinity, error: { type: 'finite_number' } },
      { value: NaN, error: { type: 'finite_number' } },
    ]));

  it('bounds the optional model fields', async () => {
    await expectBounds(CreateTaskDto, valid, 'reference_parameter_count', [{ value: null }, { value: -1, error: ge(0) }, { value: 0 }, { value: 1_100_000_000 }]);
    await expectBounds(CreateTaskDto, valid, 'reference_model_id', [{ value: text(255) }, { value: text(256), error: tooLong(255) }]);
    await expectBounds(CreateTaskDto, valid, 'model_family', [{ value: text(120) }, { value: text(121), error: tooLong(120) }]);
    await expectBounds(CreateTaskDto, valid, 'slug_compatibility_note', [{ value: null }, { value: text(2000) }, { value: text(2001), error: tooLong(2000) }]);
  });

  it('rejects unknown properties, validator-private or not', async () => {
    expect(await reject(CreateTaskDto, { ...valid, task_state: 'live' })).toMatchObject([{ type: 'extra_forbidden', loc: ['body', 'task_state'], input: 'live' }]);
  });
});

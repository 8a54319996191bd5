import { PeerEvaluateDto, ScanRequestDto, ValidatorJobClaimDto, ValidatorJobResultDto, VerifyDto } from '@rcs/contracts';
import { accept, expectBounds, reject } from './pipe.test-helpers';

const verdictEnum = { type: 'enum', ctx: { expected: "'accepted', 'rejected' or 'error'" } };
const manyMetrics = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, i]));
const metricsTooLong = { type: 'too_long', ctx: { field_type: 'Dictionary', max_length: 64, actual_length: 65 } };

describe.each([
  ['PeerEvaluateDto', PeerEvaluateDto],
  ['VerifyDto', VerifyDto],
  ['ValidatorJobResultDto', ValidatorJobResultDto],
])('%s', (_name, dto) => {
  const valid = { status: 'accepted', observed_metrics: { heldout_ppl: 11.9 } };

  it('takes a verdict status only: accepted, rejected or error', () =>
    expectBounds(dto, valid, 'status', [
      { value: 'accepted' },
      { value: 'rejected' },
      { value: 'error' },
      { value: 'pending', error: verdictEnum },
      { value: undefined, error: { type: 'missing' } },
    ]));

  it('bounds observed_metrics to 64 properties, default {}', async () => {
    expect(await accept(dto, { status: 'error' })).toMatchObject({ observed_metrics: {}, notes: null });
    await expectBounds(dto, valid, 'observed_metrics', [
      { value: manyMetrics(64) },
      { value: manyMetrics(65), error: metricsTooLong },
      { value: 'ppl=3', error: { type: 'dict_type' } },
    ]);
  });

  it('takes observed_metrics with names of 1..120 characters and finite numbers only', () =>
    expectBounds(dto, valid, 'observed_metrics', [
      { value: { heldout_ppl: 11.9, ['m'.repeat(120)]: 0 } },
      { value: { ['m'.repeat(121)]: 1 }, error: { type: 'string_too_long', loc: ['body', 'observed_metrics', 'm'.repeat(121), '[key]'] } },
      { value: { '': 1 }, error: { type: 'string_too_short', loc: ['body', 'observed_metrics', '', '[key]'] } },
      { value: { heldout_ppl: 11.9, row: '0.31,0.77' }, error: { type: 'finite_number', loc: ['body', 'observed_metrics', 'row'] } },
      { value: { heldout_ppl: 11.9, extra: { a: [1, 2] } }, error: { type: 'finite_number', loc: ['body', 'observed_metrics', 'extra'] } },
      { value: { heldout_ppl: -Infinity }, error: { type: 'finite_number', loc: ['body', 'observed_metrics', 'heldout_ppl'] } },
    ]));

  it('takes notes as a string or null', () =>
    expectBounds(dto, valid, 'notes', [{ value: null }, { value: 'replay timed out' }, { value: 1, error: { type: 'string_type' } }]));

  it('rejects unknown properties', async () => {
    expect(await reject(dto, { ...valid, metric_value: 1 })).toMatchObject([{ type: 'extra_forbidden', loc: ['body', 'metric_value'] }]);
  });
});

describe('VerifyDto and ValidatorJobResultDto', () => {
  it('take replay_log as a string or null', async () => {
    await expectBounds(VerifyDto, { status: 'accepted' }, 'replay_log', [{ value: null }, { value: 'log' }, { value: [], error: { type: 'string_type' } }]);
    await expectBounds(ValidatorJobResultDto, { status: 'accepted' }, 'replay_log', [{ value: 'log' }, { value: 9, error: { type: 'string_type' } }]);
  });

  it('take per_item as finite numbers (at most 20,000) or null', async () => {
    for (const dto of [VerifyDto, ValidatorJobResultDto]) {
      await expectBounds(dto, { status: 'accepted' }, 'per_item', [{ value: null }, { value: [0.25, 1, 0] }, { value: Array.from({ length: 20_000 }, () => 1) }]);
      await expectBounds(dto, { status: 'accepted' }, 'per_item', [
        { value: 'x', error: { type: 'list_type' } },
        { value: [1, 'a'], error: { type: 'float_type', loc: ['body', 'per_item', 1] } },
        { value: [1, Infinity], error: { type: 'finite_number', loc: ['body', 'per_item', 1] } },
        { value: Array.from({ length: 20_001 }, () => 1), error: { type: 'too_long' } },
      ]);
    }
  });

  it('ValidatorJobResultDto also takes submission_id, string or null', async () => {
    expect(await accept(ValidatorJobResultDto, { status: 'rejected' })).toEqual({
      status: 'rejected',
      observed_metrics: {},
      per_item: null,
      notes: null,
      replay_log: null,
      submission_id: null,
    });
    await expectBounds(ValidatorJobResultDto, { status: 'accepted' }, 'submission_id', [{ value: 'sub-1' }, { value: 2, error: { type: 'string_type' } }]);
    expect(await reject(VerifyDto, { status: 'accepted', submission_id: 'sub-1' })).toMatchObject([{ type: 'extra_forbidden', loc: ['body', 'submission_id'] }]);
  });
});

describe('ValidatorJobClaimDto', () => {
  it('accepts no body and optional task filters', async () => {
    expect(await accept(ValidatorJobClaimDto, undefined)).toEqual({ task_id: null, task_slug: null, capabilities: null });
    await expectBounds(ValidatorJobClaimDto, {}, 'task_id', [{ value: 't1' }, { value: null }, { value: 1, error: { type: 'string_type' } }]);
    await expectBounds(ValidatorJobClaimDto, {}, 'task_slug', [{ value: 'tiny-lm' }, { value: false, error: { type: 'string_type' } }]);
  });
});

describe.each([
  ['ValidatorJobClaimDto', ValidatorJobClaimDto],
  ['ScanRequestDto', ScanRequestDto],
])('%s capabilities', (_name, dto) => {
  it('takes capabilities as null or an object whose absent fields mean no GPU', async () => {
    expect(await accept(dto, { capabilities: {} })).toMatchObject({ capabilities: { gpu_count: 0, gpu_memory_gb: 0 } });
    expect(await accept(dto, { capabilities: { gpu_count: 2, gpu_memory_gb: 85.5 } })).toMatchObject({ capabilities: { gpu_count: 2, gpu_memory_gb: 85.5 } });
    await expectBounds(dto, {}, 'capabilities', [{ value: null }, { value: 'gpu', error: { type: 'model_type' } }]);
  });

  it('bounds gpu_count to an integer 0..64 and gpu_memory_gb to a number 0..4096, and refuses unknown properties', async () => {
    const items = async (capabilities: unknown) => (await reject(dto, { capabilities })).map((item) => [item.type, item.loc.join('.')]);
    expect(await items({ gpu_count: -1 })).toEqual([['greater_than_equal', 'body.capabilities.gpu_count']]);
    expect(await items({ gpu_count: 65 })).toEqual([['less_than_equal', 'body.capabilities.gpu_count']]);
    expect(await items({ gpu_count: 1.5 })).toEqual([['int_type', 'body.capabilities.gpu_count']]);
    expect(await items({ gpu_memory_gb: -0.5 })).toEqual([['greater_than_equal', 'body.capabilities.gpu_memory_gb']]);
    expect(await items({ gpu_memory_gb: 4097 })).toEqual([['less_than_equal', 'body.capabilities.gpu_memory_gb']]);
    expect(await items({ gpu_memory_gb: '80' })).toEqual([['float_type', 'body.capabilities.gpu_memory_gb']]);
    expect(await items({ gpus: 1 })).toEqual([['extra_forbidden', 'body.capabilities.gpus']]);
  });
});

describe('ScanRequestDto', () => {
  it('bounds limit to 1..16, default 1', async () => {
    expect(await accept(ScanRequestDto, {})).toEqual({ task_id: null, task_slug: null, capabilities: null, limit: 1 });
    await expectBounds(ScanRequestDto, {}, 'limit', [
      { value: 0, error: { type: 'greater_than_equal', ctx: { ge: 1 } } },
      { value: 1 },
      { value: 16 },
      { value: 17, error: { type: 'less_than_equal', ctx: { le: 16 } } },
      { value: 2.5, error: { type: 'int_type' } },
    ]);
  });

  it('keeps the task filters of the job claim', async () => {
    expect(await accept(ScanRequestDto, { task_slug: 'tiny-lm', limit: 4 })).toEqual({ task_id: null, task_slug: 'tiny-lm', capabilities: null, limit: 4 });
  });
});

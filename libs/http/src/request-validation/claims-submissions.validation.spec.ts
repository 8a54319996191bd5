import { ArtifactDescriptorDto, CreateSubmissionDto, CreateTaskClaimDto, CreateWorkItemClaimDto } from '@rcs/contracts';
import { accept, expectBounds, lengthBounds, reject, text, tooLong, tooShort } from './pipe.test-helpers';


describe('CreateTaskClaimDto', () => {
  const valid = { claim_description: 'try a cosine schedule' };

  it('bounds claim_description to 8..4000 characters', () =>
    expectBounds(CreateTaskClaimDto, valid, 'claim_description', [
      ...lengthBounds(8, 4000),
      { value: null, error: { type: 'string_type' } },
      { value: undefined, error: { type: 'missing' } },
    ]));

  it('accepts a null or string base_submission_id, default null', async () => {
    expect(await accept(CreateTaskClaimDto, valid)).toEqual({ ...valid, base_submission_id: null });
    await expectBounds(CreateTaskClaimDto, valid, 'base_submission_id', [{ value: 'sub-1' }, { value: null }, { value: 1, error: { type: 'string_type' } }]);
  });
});

describe('CreateWorkItemClaimDto', () => {
  it('accepts an empty body', async () => {
    expect(await accept(CreateWorkItemClaimDto, {})).toEqual({ claim_description: null });
  });

  it('bounds claim_description to 4000 characters', () =>
    expectBounds(CreateWorkItemClaimDto, {}, 'claim_description', [
      { value: null },
      { value: '' },
      { value: text(4000) },
      { value: text(4001), error: tooLong(4000) },
    ]));

  it('rejects unknown properties', async () => {
    expect(await reject(CreateWorkItemClaimDto, { description: 'x' })).toMatchObject([{ type: 'extra_forbidden', loc: ['body', 'description'] }]);
  });
});

describe('CreateSubmissionDto', () => {
  const valid = { claim_id: 'claim-1', base_ref: 'main', summary: 'lowered lr' };
  const sha = 'ab'.repeat(32);

  it('fills defaults: empty patch, empty claimed_metrics, null optionals', async () => {
    expect(await accept(CreateSubmissionDto, valid)).toEqual({
      ...valid,
      patch: '',
      proposed_idea: null,
      implemented_submission_id: null,
      artifact_uri: null,
      artifact_sha256: null,
      artifact_size_bytes: null,
      execution_log: null,
      claimed_metrics: {},
    });
  });

  it('requires claim_id, base_ref and summary', async () => {
    expect((await reject(CreateSubmissionDto, {})).map((item) => [item.type, item.loc])).toEqual([
      ['missing', ['body', 'claim_id']],
      ['missing', ['body', 'base_ref']],
      ['missing', ['body', 'summary']],
    ]);
  });

  it('bounds base_ref to 1..255 and summary to 1..8000 characters', async () => {
    await expectBounds(CreateSubmissionDto, valid, 'base_ref', [
      { value: '', error: tooShort(1) },
      { value: 'a' },
      { value: text(255) },
      { value: text(256), error: tooLong(255) },
    ]);
    await expectBounds(CreateSubmissionDto, valid, 'summary', [
      { value: '', error: tooShort(1) },
      { value: 's' },
      { value: text(8000) },
      { value: text(8001), error: tooLong(8000) },
    ]);
  });

  it('takes patch as a string only', () =>
    expectBounds(CreateSubmissionDto, valid, 'patch', [
      { value: 'diff --git a/x b/x\n' },
      { value: null, error: { type: 'string_type' } },
      { value: ['diff'], error: { type: 'string_type' } },
    ]));

  it('bounds proposed_idea to 4000 and artifact_uri to 2000 characters', async () => {
    await expectBounds(CreateSubmissionDto, valid, 'proposed_idea', [{ value: null }, { value: text(4000) }, { value: text(4001), error: tooLong(4000) }]);
    await expectBounds(CreateSubmissionDto, valid, 'artifact_uri', [{ value: null }, { value: text(2000) }, { value: text(2001), error: tooLong(2000) }]);
  });

  it('requires artifact_sha256 to be exactly 64 hex characters', () =>
    expectBounds(CreateSubmissionDto, valid, 'artifact_sha256', [
      { value: null },
      { value: sha },
      { value: sha.toUpperCase() },
      { value: sha.slice(1), error: tooShort(64) },
      { value: `${sha}0`, error: tooLong(64) },
      { value: `${sha.slice(1)}g`, error: { type: 'string_pattern_mismatch', ctx: { pattern: '^[0-9a-fA-F]{64}$' } } },
    ]));

  it('requires artifact_size_bytes to be an integer >= 0', () =>
    expectBounds(CreateSubmissionDto, valid, 'artifact_size_bytes', [
      { value: null },
      { value: -1, error: { type: 'greater_than_equal', ctx: { ge: 0 } } },
      { value: 0 },
      { value: Number.MAX_SAFE_INTEGER },
      { value: Number.MAX_SAFE_INTEGER + 2, error: { type: 'less_than_equal', ctx: { le: Number.MAX_SAFE_INTEGER } } },
      { value: 10.5, error: { type: 'int_type' } },
    ]));

  it('bounds claimed_metrics to 64 metrics: names of 1..120 characters, finite numbers', () =>
    expectBounds(CreateSubmissionDto, valid, 'claimed_metrics', [
      { value: { heldout_ppl: 12.5, steps: 3, delta: -1e-9 } },
      { value: { [text(120)]: 1 } },
      { value: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`m${i}`, i])) },
      {
        value: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`m${i}`, i])),
        error: { type: 'too_long', ctx: { field_type: 'Dictionary', max_length: 64, actual_length: 65 } },
      },
      { value: { [text(121)]: 1 }, error: { type: 'string_too_long', loc: ['body', 'claimed_metrics', text(121), '[key]'], ctx: { max_length: 120 } } },
      { value: { '': 1 }, error: { type: 'string_too_short', loc: ['body', 'claimed_metrics', '', '[key]'], ctx: { min_length: 1 } } },
      { value: { notes: 'heldout row 17: 0.31,0.77' }, error: { type: 'finite_number', loc: ['body', 'claimed_metrics', 'notes'] } },
      { value: { seeds: [1, 2] }, error: { type: 'finite_number', loc: ['body', 'claimed_metrics', 'seeds'] } },
      { value: { nested: { a: 1 } }, error: { type: 'finite_number', loc: ['body', 'claimed_metrics', 'nested'] } },
      { value: { ok: true }, error: { type: 'finite_number', loc: ['body', 'claimed_metrics', 'ok'] } },
      { value: { missing: null }, error: { type: 'finite_number', loc: ['body', 'claimed_metrics', 'missing'] } },
      { value: { huge: Infinity }, error: { type: 'finite_number', loc: ['body', 'claimed_metrics', 'huge'] } },
      { value: [1], error: { type: 'dict_type' } },
      { value: null, error: { type: 'dict_type' } },
    ]));

  it('accepts null or string for the remaining optional strings', async () => {
    await expectBounds(CreateSubmissionDto, valid, 'implemented_submission_id', [{ value: null }, { value: 'sub-0' }, { value: 3, error: { type: 'string_type' } }]);
    await expectBounds(CreateSubmissionDto, valid, 'execution_log', [{ value: null }, { value: 'log' }, { value: false, error: { type: 'string_type' } }]);
  });
});

describe('forbidUnknownValues', () => {
  it('refuses any body for a class without rules, such as a response DTO', async () => {
    expect(await reject(ArtifactDescriptorDto, { submission_id: 's' })).toEqual([
      { type: 'model_type', loc: ['body'], msg: 'Input should be a valid dictionary or object' },
    ]);
  });
});

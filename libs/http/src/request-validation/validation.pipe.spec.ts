import { ApiValidationError, CreateSubmissionDto, CreateTaskClaimDto, CreateTaskDto, SubmissionQueryDto, ValidatorJobClaimDto } from '@rcs/contracts';
import { IsString, IsUUID, ValidateNested } from 'class-validator';
import { accept, reject, text } from './pipe.test-helpers';
import { createValidationPipe } from './validation.pipe';
import { validationItem } from './validation-item';

class PathDto {
  @IsUUID()
  task_id!: string;
}

class Inner {
  @IsString()
  name!: string;
}

/** A nested property without @Type: class-validator sees a plain object with no rules. */
class UntypedNestedDto {
  @ValidateNested()
  inner!: Inner;
}

describe('ApiValidationPipe', () => {
  it('answers one model_attributes_type item for a body that is not an object', async () => {
    for (const body of ['text', 42, true, [{ claim_description: 'long enough' }]]) {
      expect(await reject(CreateTaskClaimDto, body)).toEqual([
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object', input: body },
      ]);
    }
  });

  it('reports each absent required field once, as missing, without input', async () => {
    const items = await reject(CreateTaskDto, {});
    expect(items).toEqual(
      ['slug', 'title', 'repository', 'base_ref', 'benchmark_command', 'metric_name', 'metric_direction', 'time_budget_seconds'].map(
        (field) => ({ type: 'missing', loc: ['body', field], msg: 'Field required' }),
      ),
    );
  });

  it('treats an absent body as an empty object', async () => {
    expect(await reject(CreateTaskClaimDto, undefined)).toEqual([{ type: 'missing', loc: ['body', 'claim_description'], msg: 'Field required' }]);
    const claim = await accept(ValidatorJobClaimDto, null);
    expect(claim).toBeInstanceOf(ValidatorJobClaimDto);
    expect(claim).toEqual({ task_id: null, task_slug: null, capabilities: null });
  });

  it('reports an unknown property as extra_forbidden with its value', async () => {
    expect(await reject(CreateTaskClaimDto, { claim_description: 'a good plan', bogus: { a: 1 } })).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'bogus'], msg: 'Extra inputs are not permitted', input: { a: 1 } },
    ]);
  });

  it('gives the exact pydantic shape of a bound violation', async () => {
    const items = await reject(CreateTaskClaimDto, { claim_description: 'short' });
    expect(items).toEqual([
      { type: 'string_too_short', loc: ['body', 'claim_description'], msg: 'String should have at least 8 characters', input: 'short', ctx: { min_length: 8 } },
    ]);
  });

  it('reports the type error alone when a value has the wrong type', async () => {
    expect(await reject(CreateTaskClaimDto, { claim_description: 12 })).toEqual([
      { type: 'string_type', loc: ['body', 'claim_description'], msg: 'Input should be a valid string', input: 12 },
    ]);
  });

  it('keeps separate violations on separate properties, in declaration order', async () => {
    const items = await reject(CreateSubmissionDto, { claim_id: 'c1', base_ref: '', summary: text(8001), artifact_size_bytes: -1, extra: 1 });
    expect(items.map((item) => [item.type, item.loc])).toEqual([
      ['extra_forbidden', ['body', 'extra']],
      ['string_too_short', ['body', 'base_ref']],
      ['string_too_long', ['body', 'summary']],
      ['greater_than_equal', ['body', 'artifact_size_bytes']],
    ]);
  });

  it('applies defaults and returns an instance of the DTO', async () => {
    const submission = await accept(CreateSubmissionDto, { claim_id: 'c1', base_ref: 'main', summary: 'tuned lr' });
    expect(submission).toBeInstanceOf(CreateSubmissionDto);
    expect(submission).toMatchObject({ patch: '', claimed_metrics: {}, proposed_idea: null, artifact_uri: null });
  });

  it('coerces numeric query strings and reports query locs', async () => {
    expect(await accept(SubmissionQueryDto, { limit: '25', offset: '50' }, 'query')).toMatchObject({ limit: 25, offset: 50 });
    expect(await reject(SubmissionQueryDto, { limit: 'many' }, 'query')).toEqual([
      { type: 'int_type', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: 'many' },
    ]);
  });

  it('reports path parameters under path', async () => {
    expect(await reject(PathDto, { task_id: 'nope' }, 'param')).toEqual([
      { type: 'value_error', loc: ['path', 'task_id'], msg: 'Value error, task_id must be a UUID', input: 'nope' },
    ]);
    expect(await accept(PathDto, { task_id: '0b8f9c7e-4c1a-4f7e-9a59-3f9a1f2b6c11' }, 'param')).toBeInstanceOf(PathDto);
  });

  it('prefixes loc with the parameter name of a named DTO parameter', async () => {
    const pipe = createValidationPipe();
    await expect(pipe.transform({ claim_description: 'short' }, { type: 'body', metatype: CreateTaskClaimDto, data: 'claim' })).rejects.toMatchObject({
      items: [{ type: 'string_too_short', loc: ['body', 'claim', 'claim_description'] }],
    });
  });

  it('leaves primitives and custom parameters alone', async () => {
    const pipe = createValidationPipe();
    expect(await pipe.transform('abc', { type: 'param', metatype: String, data: 'task_id' })).toBe('abc');
    expect(await pipe.transform({ any: 1 }, { type: 'custom', metatype: CreateTaskDto })).toEqual({ any: 1 });
  });

  it('reports a nested object without rules as model_type at its property', async () => {
    expect(await reject(UntypedNestedDto, { inner: { name: 'x' } })).toEqual([
      { type: 'model_type', loc: ['body', 'inner'], msg: 'Input should be a valid dictionary or object' },
    ]);
  });

  it('throws ApiValidationError, the class the error filter answers 422 for', async () => {
    await expect(createValidationPipe().transform({}, { type: 'body', metatype: CreateTaskClaimDto })).rejects.toBeInstanceOf(ApiValidationError);
  });
});

describe('NUL characters', () => {
  it('refuses U+0000 anywhere in a body, since Postgres cannot store it, with the other violations', async () => {
    const items = await reject(CreateSubmissionDto, {
      claim_id: 'c',
      base_ref: 'ma\u0000in',
      summary: '',
      claimed_metrics: { 'k\u0000': 1, ok: ['a', 'b\u0000'] },
    });
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'string_too_short', loc: ['body', 'summary'] }),
        expect.objectContaining({ type: 'string_nul_character', loc: ['body', 'base_ref'] }),
        expect.objectContaining({ type: 'string_nul_character', loc: ['body', 'claimed_metrics', 'k\u0000'] }),
        expect.objectContaining({ type: 'string_nul_character', loc: ['body', 'claimed_metrics', 'ok', 1] }),
      ]),
    );
  });

  it('refuses unpaired surrogates, which jsonb cannot store, and keeps pairs', async () => {
    const items = await reject(CreateTaskClaimDto, { claim_description: 'long enough \ud800 here' });
    expect(items).toEqual([expect.objectContaining({ type: 'string_unicode', loc: ['body', 'claim_description'] })]);
    await expect(accept(CreateTaskClaimDto, { claim_description: 'rocket \ud83d\ude80 ok' })).resolves.toBeTruthy();
  });

  it('refuses U+0000 in an otherwise valid body', async () => {
    const items = await reject(CreateTaskClaimDto, { claim_description: 'long enough\u0000' });
    expect(items).toEqual([expect.objectContaining({ type: 'string_nul_character', loc: ['body', 'claim_description'] })]);
  });
});

describe('validationItem', () => {
  it('leaves out input and ctx when they are undefined', () => {
    expect(validationItem('missing', ['body', 'a'], 'Field required')).toEqual({ type: 'missing', loc: ['body', 'a'], msg: 'Field required' });
    expect(validationItem('too_long', ['body', 'a'], 'm', null, { max_length: 1 })).toEqual({
      type: 'too_long',
      loc: ['body', 'a'],
      msg: 'm',
      input: null,
      ctx: { max_length: 1 },
    });
  });
});

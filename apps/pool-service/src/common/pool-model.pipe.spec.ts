import { ApiValidationError, EvaluationSubmissionDto, EvolutionSubmissionDto, LeaseRequestDto, LeaseSubmissionDto, ResultsQueryDto, type ValidationErrorItem } from '@rcs/contracts';
import { thrownBy } from '@rcs/testing';
import type { Type } from '@nestjs/common';
import { IgnoredBodyPipe, PoolModelPipe } from './pool-model.pipe';

async function items<T extends object>(dto: Type<T>, value: unknown, location: 'body' | 'query' = 'body'): Promise<ValidationErrorItem[]> {
  try {
    await new PoolModelPipe(dto, location).transform(value);
    return [];
  } catch (error) {
    if (error instanceof ApiValidationError) return error.items;
    throw error;
  }
}

describe('PoolModelPipe (pool request models: unknown properties ignored, known ones bounded)', () => {
  it('drops unknown properties at every level and keeps defaults', async () => {
    const lease = await new PoolModelPipe(LeaseSubmissionDto, 'body').transform({
      evaluations: [{ algorithm_id: 3, score: 0.5, evaluation_metrics: { acc: 1 } }],
      public_address: '5x',
      signature: 'ab',
      message: 'auth:1',
    });
    expect(JSON.parse(JSON.stringify(lease))).toEqual({ evaluations: [{ algorithm_id: 3, score: 0.5 }], evolutions: [] });
  });

  it.each([
    [1, 'greater_than_equal'],
    [2, null],
    [64, null],
    [65, 'less_than_equal'],
    [2.5, 'int_type'],
  ])('eval_batch_size %j → %s', async (value, type) => {
    const found = await items(LeaseRequestDto, { eval_batch_size: value });
    expect(found.map((i) => i.type)).toEqual(type === null ? [] : [type]);
  });

  it('bounds the DSL in UTF-8 bytes, not characters', async () => {
    const fits = 'é'.repeat(32 * 1024);
    const over = `${fits}x`;
    expect(await items(EvolutionSubmissionDto, { evolved_function: fits })).toEqual([]);
    expect((await items(EvolutionSubmissionDto, { evolved_function: over }))[0]).toMatchObject({ loc: ['body', 'evolved_function'] });
  });

  it('accepts parents as ids or {id} objects and refuses anything else', async () => {
    expect(await items(EvolutionSubmissionDto, { evolved_function: 'x', parent_functions: [1, { id: 2, code: 'c' }] })).toEqual([]);
    expect((await items(EvolutionSubmissionDto, { evolved_function: 'x', parent_functions: [{ code: 'c' }] }))[0]).toMatchObject({ loc: ['body', 'parent_functions'] });
  });

  it('locates nested violations and refuses what Postgres cannot store', async () => {
    expect(await items(EvaluationSubmissionDto, { evaluations: [{ algorithm_id: 0, score: 'x' }] })).toEqual([
      expect.objectContaining({ loc: ['body', 'evaluations', 0, 'algorithm_id'], type: 'greater_than_equal' }),
      expect.objectContaining({ loc: ['body', 'evaluations', 0, 'score'], type: 'float_type' }),
    ]);
    expect((await items(EvolutionSubmissionDto, { evolved_function: 'a\u0000b' }))[0]).toMatchObject({ type: 'string_nul_character' });
    expect((await items(LeaseRequestDto, ['x']))[0]).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
  });

  it('refuses properties named like Object.prototype members (422 extra_forbidden) wherever they appear, instead of dropping them', async () => {
    expect(await items(LeaseRequestDto, JSON.parse('{"eval_batch_size": 4, "__proto__": {"eval_batch_size": 1}}'))).toEqual([
      { type: 'extra_forbidden', loc: ['body', '__proto__'], msg: expect.any(String), input: { eval_batch_size: 1 } },
    ]);
    expect(await items(LeaseSubmissionDto, JSON.parse('{"evaluations": [{"algorithm_id": 3, "score": 0.5, "constructor": {"prototype": 1}}]}'))).toEqual([
      expect.objectContaining({ type: 'extra_forbidden', loc: ['body', 'evaluations', 0, 'constructor'] }),
    ]);
    // Also inside a property the model does not declare (which is otherwise ignored).
    expect(await items(LeaseSubmissionDto, { metadata: { toString: 'x' } })).toEqual([
      expect.objectContaining({ type: 'extra_forbidden', loc: ['body', 'metadata', 'toString'] }),
    ]);
    expect(await items(ResultsQueryDto, { limit: '5', hasOwnProperty: 'x' }, 'query')).toEqual([expect.objectContaining({ type: 'extra_forbidden', loc: ['query', 'hasOwnProperty'] })]);
  });

  it('checks a body the route ignores for reserved names only', () => {
    const pipe = new IgnoredBodyPipe();
    expect(pipe.transform({ public_address: 'x', metadata: { a: 1 } })).toBeUndefined();
    expect(pipe.transform(undefined)).toBeUndefined();
    expect(pipe.transform(['anything'])).toBeUndefined();
    expect(thrownBy(ApiValidationError, () => pipe.transform(JSON.parse('{"metadata": {"__proto__": 1}}')))).toMatchObject({
      items: [expect.objectContaining({ type: 'extra_forbidden', loc: ['body', 'metadata', '__proto__'] })],
    });
  });

  it('coerces query numbers and keeps the caller’s input in the item', async () => {
    const query = await new PoolModelPipe(ResultsQueryDto, 'query').transform({ limit: '5', min_score: '0.5', page: '2' });
    expect(JSON.parse(JSON.stringify(query))).toEqual({ limit: 5, min_score: 0.5, status: 'verified' });
    expect((await items(ResultsQueryDto, { limit: 'many' }, 'query'))[0]).toMatchObject({ loc: ['query', 'limit'], input: 'many' });
  });
});

import {
  ClaimQueryDto,
  IdeaRewardQueryDto,
  PeerEvaluationQueryDto,
  SubmissionQueryDto,
  VerificationQueryDto,
  WorkItemQueryDto,
} from '@rcs/contracts';
import { accept, reject } from './pipe.test-helpers';

const query = <T>(dto: new () => T, value: Record<string, unknown>) => accept(dto, value, 'query');
const queryItems = (dto: new () => unknown, value: Record<string, unknown>) => reject(dto, value, 'query');

describe('SubmissionQueryDto', () => {
  it('defaults to limit 100, offset 0', async () => {
    expect(await query(SubmissionQueryDto, {})).toEqual({ limit: 100, offset: 0 });
  });

  it('coerces numeric strings and bounds limit to 1..1000', async () => {
    expect(await query(SubmissionQueryDto, { limit: '1', offset: '0' })).toMatchObject({ limit: 1, offset: 0 });
    expect(await query(SubmissionQueryDto, { limit: '1000', offset: '12345' })).toMatchObject({ limit: 1000, offset: 12345 });
    expect(await queryItems(SubmissionQueryDto, { limit: '0' })).toEqual([
      { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } },
    ]);
    expect(await queryItems(SubmissionQueryDto, { limit: '1001' })).toMatchObject([{ type: 'less_than_equal', loc: ['query', 'limit'], ctx: { le: 1000 } }]);
  });

  it('keeps non-numeric input as sent in the item', async () => {
    expect(await queryItems(SubmissionQueryDto, { limit: '' })).toMatchObject([{ type: 'int_type', loc: ['query', 'limit'], input: '' }]);
    expect(await queryItems(SubmissionQueryDto, { offset: '1.5' })).toMatchObject([{ type: 'int_type', loc: ['query', 'offset'], input: 1.5 }]);
    expect(await queryItems(SubmissionQueryDto, { offset: '-1' })).toMatchObject([{ type: 'greater_than_equal', loc: ['query', 'offset'], ctx: { ge: 0 } }]);
  });

  it('filters by task and status enum', async () => {
    expect(await query(SubmissionQueryDto, { task_id: 't1', status: 'pending_verification' })).toMatchObject({ task_id: 't1', status: 'pending_verification' });
    expect(await queryItems(SubmissionQueryDto, { status: 'done' })).toMatchObject([
      { type: 'enum', loc: ['query', 'status'], ctx: { expected: "'pending_verification', 'accepted', 'rejected' or 'error'" } },
    ]);
  });

  it('reports a repeated parameter as the wrong type', async () => {
    expect(await queryItems(SubmissionQueryDto, { task_id: ['a', 'b'] })).toMatchObject([{ type: 'string_type', loc: ['query', 'task_id'], input: ['a', 'b'] }]);
  });
});

describe('list queries', () => {
  it('ClaimQueryDto filters by task and ClaimStatus', async () => {
    expect(await query(ClaimQueryDto, { task_id: 't1', status: 'active' })).toEqual({ task_id: 't1', status: 'active', limit: 100, offset: 0 });
    expect(await queryItems(ClaimQueryDto, { status: 'open' })).toMatchObject([{ type: 'enum', loc: ['query', 'status'] }]);
  });

  it('WorkItemQueryDto takes a free status up to 64 characters', async () => {
    expect(await query(WorkItemQueryDto, { status: 'anything-goes' })).toEqual({ status: 'anything-goes', limit: 100, offset: 0 });
    expect(await query(WorkItemQueryDto, { status: 's'.repeat(64) })).toMatchObject({ status: 's'.repeat(64) });
    expect(await queryItems(WorkItemQueryDto, { status: 's'.repeat(65) })).toMatchObject([
      { type: 'string_too_long', loc: ['query', 'status'], ctx: { max_length: 64 } },
    ]);
  });

  it('PeerEvaluationQueryDto and VerificationQueryDto filter by VerificationStatus, pending included', async () => {
    expect(await query(PeerEvaluationQueryDto, { submission_id: 's', evaluator_hotkey: 'h', status: 'pending' })).toEqual({
      submission_id: 's',
      evaluator_hotkey: 'h',
      status: 'pending',
      limit: 100,
      offset: 0,
    });
    expect(await query(VerificationQueryDto, { submission_id: 's', status: 'accepted' })).toEqual({ submission_id: 's', status: 'accepted', limit: 100, offset: 0 });
    expect(await queryItems(VerificationQueryDto, { status: 'ok' })).toMatchObject([
      { type: 'enum', loc: ['query', 'status'], ctx: { expected: "'accepted', 'rejected', 'error' or 'pending'" } },
    ]);
  });

  it('IdeaRewardQueryDto takes its four filters, paged', async () => {
    const filters = { task_id: 't', submission_id: 's', proposer_hotkey: 'p', implementer_hotkey: 'i' };
    expect(await query(IdeaRewardQueryDto, filters)).toEqual({ ...filters, limit: 100, offset: 0 });
  });

  it.each([ClaimQueryDto, WorkItemQueryDto, PeerEvaluationQueryDto, VerificationQueryDto, IdeaRewardQueryDto, SubmissionQueryDto])(
    '%p rejects unknown query parameters',
    async (dto) => {
      expect(await queryItems(dto, { page: '2' })).toEqual([
        { type: 'extra_forbidden', loc: ['query', 'page'], msg: 'Extra inputs are not permitted', input: '2' },
      ]);
    },
  );

  it('accepts a query object without prototype, as Fastify builds it', async () => {
    const raw = Object.assign(Object.create(null) as Record<string, unknown>, { limit: '5' });
    expect(await query(SubmissionQueryDto, raw)).toMatchObject({ limit: 5 });
  });
});

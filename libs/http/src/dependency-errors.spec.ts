import { QueryFailedError } from 'typeorm';
import { ErrorCode } from '@rcs/contracts';
import { RedisUnavailableError } from '@rcs/queue';
import { toErrorResponse } from './error-response';

/** Errors shaped as node-postgres, TypeORM and ioredis raise them (the fault tests raise the real ones). */
function socketError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, syscall: 'connect' });
}

function pgError(code: string, message: string): QueryFailedError {
  return new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));
}

/** A 503 with that code and a Retry-After in whole seconds, not logged as our own failure. */
function expectUnavailable(error: unknown, code: ErrorCode): void {
  const response = toErrorResponse(error, 'req-1');
  expect(response).toMatchObject({ status: 503, body: { detail: { error: code } }, internal: false });
  expect(response.headers['Retry-After']).toMatch(/^\d+$/);
}

describe('connection-level errors become 503s', () => {
  it.each([
    ['a refused connection', socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['an administrator shutdown', pgError('57P01', 'terminating connection due to administrator command')],
    ['a server starting up', pgError('57P03', 'the database system is starting up')],
    ['a connection failure', pgError('08006', 'connection failure')],
    ['a connection lost mid-query', new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'))],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
  ])('database_unavailable for %s', (_what, error) => expectUnavailable(error, ErrorCode.DatabaseUnavailable));

  it.each([
    ['the offline queue refusing', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a closed connection', new Error('Connection is closed.')],
    ['a command timeout', new Error('Command timed out')],
    ['retries exhausted', Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' })],
    ['a Redis loading its data', new Error('LOADING Redis is loading the dataset in memory')],
    ['our own refusal to wait', new RedisUnavailableError('the queue is not connected')],
  ])('redis_unavailable for %s', (_what, error) => expectUnavailable(error, ErrorCode.RedisUnavailable));

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', pgError('42601', 'syntax error at or near "SELEC"')],
    ['a refused Redis command', new Error('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('still 500 internal_error for %s', (_what, error) => {
    expect(toErrorResponse(error, 'req-1')).toMatchObject({ status: 500, body: { detail: { error: ErrorCode.InternalError } }, internal: true });
  });
});

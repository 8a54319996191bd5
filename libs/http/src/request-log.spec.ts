import { loggedUrl } from './request-log';

describe('request log URLs', () => {
  const digest = 'ab'.repeat(32);

  it('log a SHA-256 in the path as [sha256] (a held-out shard digest never reaches a request log, DECISIONS §6)', () => {
    expect(loggedUrl(`/api/v1/tasks/t1/heldout/${digest}`)).toBe('/api/v1/tasks/t1/heldout/[sha256]');
    expect(loggedUrl(`/api/v1/tasks/t1/heldout/${digest.toUpperCase()}?x=1`)).toBe('/api/v1/tasks/t1/heldout/[sha256]?x=1');
  });

  it('leave other paths alone: ids, shorter or longer hex, and the query', () => {
    for (const url of ['/api/v1/tasks/0c5e6f1e-1111-4222-8333-444455556666', `/x/${digest}0`, `/x/${digest.slice(1)}`, `/x?sha=${digest}`]) expect(loggedUrl(url)).toBe(url);
  });
});

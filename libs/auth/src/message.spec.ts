import { createHash } from 'node:crypto';
import { loadVectors } from '../test/vectors';
import { bodySha256, buildMessage, splitUrl } from './message';

describe('BT-AUTH-V1 message', () => {
  describe.each(loadVectors().map((v) => [v.name, v] as const))('vector %s', (_name, v) => {
    it('reproduces body_sha256 and message', () => {
      expect(bodySha256(v.canonical_body)).toBe(v.body_sha256);
      const parts = { method: v.method, path: v.path, query: v.query, timestamp: v.timestamp };
      expect(buildMessage({ ...parts, canonicalBody: v.canonical_body })).toBe(v.message);
    });
  });

  it('upper-cases the method and keeps the timestamp as given', () => {
    const message = buildMessage({ method: 'get', path: '/a', query: 'x=1', timestamp: '0042', canonicalBody: '' });
    expect(message.split('\n')).toEqual([
      'BT-AUTH-V1',
      'GET',
      '/a',
      'x=1',
      '0042',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ]);
  });

  it('hashes the UTF-8 bytes of the canonical body', () => {
    const utf8Bytes = Buffer.from([0xc3, 0xa9]);
    expect(bodySha256('\u00e9')).toBe(createHash('sha256').update(utf8Bytes).digest('hex'));
  });
});

describe('splitUrl', () => {
  it.each([
    ['/api/v1/submissions', '/api/v1/submissions', ''],
    ['/api/v1/submissions?task_id=t-1&status=accepted', '/api/v1/submissions', 'task_id=t-1&status=accepted'],
    ['/a?', '/a', ''],
    ['/a?x=%20y&z=a?b', '/a', 'x=%20y&z=a?b'],
    ['/caf%C3%A9/x', '/caf%C3%A9/x', ''],
  ])('%s', (url, path, query) => {
    expect(splitUrl(url)).toEqual({ path, query });
  });
});

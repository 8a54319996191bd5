import { InvalidRedisUrlError } from '../errors';
import { redisOptionsFromUrl } from './redis';

describe('redisOptionsFromUrl', () => {
  it('reads host, port and database', () => {
    expect(redisOptionsFromUrl('redis://127.0.0.1:6380/2')).toEqual({ host: '127.0.0.1', port: 6380, db: 2 });
    expect(redisOptionsFromUrl('redis://cache')).toEqual({ host: 'cache', port: 6379 });
  });

  it('decodes credentials and enables TLS for rediss://', () => {
    expect(redisOptionsFromUrl('rediss://app:p%40ss@cache.internal:6390')).toEqual({
      host: 'cache.internal',
      port: 6390,
      username: 'app',
      password: 'p@ss',
      tls: { servername: 'cache.internal' },
    });
    expect(redisOptionsFromUrl('redis://:secret@[::1]:6379')).toEqual({ host: '::1', port: 6379, password: 'secret' });
  });

  it('refuses other schemes and malformed URLs without echoing the password', () => {
    expect(() => redisOptionsFromUrl('http://cache:6379')).toThrow(InvalidRedisUrlError);
    expect(() => redisOptionsFromUrl('not a url')).toThrow(InvalidRedisUrlError);
    expect(() => redisOptionsFromUrl('redis://u:hunter2@cache/abc')).toThrow(/redis:\/\/\*\*\*@cache\/abc/);
  });
});

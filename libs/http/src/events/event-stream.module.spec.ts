import { EnvReader } from '@rcs/config';
import { TrustedProxies } from '../net/trusted-proxies';
import { readEventStreamSettings } from './event-stream.module';

describe('readEventStreamSettings', () => {
  const proxies = TrustedProxies.parse(['10.0.0.0/8']).proxies;

  it('bounds open streams by DECISIONS §14 by default: 8 per client, 2000 in all, 60 s without the client reading', () => {
    const read = new EnvReader({});
    expect(readEventStreamSettings(read, proxies)).toEqual({
      maxLength: 10000,
      heartbeatMs: 15_000,
      maxStreamsPerClient: 8,
      maxStreams: 2000,
      maxIdleMs: 60_000,
      trustedProxies: proxies,
    });
    expect(read.problems).toEqual([]);
  });

  it('reads EVENTS_MAX_STREAMS_PER_CLIENT, EVENTS_MAX_STREAMS and EVENTS_MAX_IDLE_SECONDS', () => {
    const read = new EnvReader({ EVENTS_MAX_STREAMS_PER_CLIENT: '2', EVENTS_MAX_STREAMS: '50', EVENTS_MAX_IDLE_SECONDS: '5' });
    expect(readEventStreamSettings(read, proxies)).toMatchObject({ maxStreamsPerClient: 2, maxStreams: 50, maxIdleMs: 5000 });
  });

  it('refuses limits that would serve no stream or are no numbers', () => {
    const read = new EnvReader({ EVENTS_MAX_STREAMS_PER_CLIENT: '0', EVENTS_MAX_STREAMS: 'many', EVENTS_MAX_IDLE_SECONDS: '-1' });
    readEventStreamSettings(read, proxies);
    expect(read.problems).toEqual([
      'EVENTS_MAX_STREAMS_PER_CLIENT must be an integer from 1 to 100000 (got "0")',
      'EVENTS_MAX_STREAMS must be an integer from 1 to 1000000 (got "many")',
      'EVENTS_MAX_IDLE_SECONDS must be an integer from 1 to 86400 (got "-1")',
    ]);
  });
});

import { href, parseRoute } from './route';

describe('routes', () => {
  it('reads every page from the hash and writes it back', () => {
    expect(parseRoute('')).toEqual({ page: 'competitions' });
    expect(parseRoute('#/')).toEqual({ page: 'competitions' });
    expect(parseRoute('#/competitions/abc-1')).toEqual({ page: 'competition', id: 'abc-1' });
    for (const page of ['validators', 'rewards', 'pool', 'status'] as const) {
      expect(parseRoute(href({ page }))).toEqual({ page });
    }
    expect(parseRoute(href({ page: 'competition', id: 'a/b' }))).toEqual({ page: 'competition', id: 'a/b' });
    expect(parseRoute('#/miners/5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')).toEqual({ page: 'miner', hotkey: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' });
    expect(parseRoute(href({ page: 'miner', hotkey: 'not/ss58' }))).toEqual({ page: 'miner', hotkey: 'not/ss58' });
    expect(parseRoute('#/miners/%')).toEqual({ page: 'malformed', path: '/miners/%' });
  });

  it('names an unknown path instead of guessing a page', () => {
    expect(parseRoute('#/nope')).toEqual({ page: 'not_found', path: '/nope' });
    expect(parseRoute('#/competitions/a/b')).toEqual({ page: 'not_found', path: '/competitions/a/b' });
  });

  it('names a hash whose percent-encoding is broken as malformed instead of throwing', () => {
    expect(parseRoute('#/competitions/%E0%A4%A')).toEqual({ page: 'malformed', path: '/competitions/%E0%A4%A' });
    expect(parseRoute('#/competitions/%')).toEqual({ page: 'malformed', path: '/competitions/%' });
    // Well-formed escapes still decode.
    expect(parseRoute('#/competitions/%E0%A4%A4')).toEqual({ page: 'competition', id: '\u0924' });
  });
});

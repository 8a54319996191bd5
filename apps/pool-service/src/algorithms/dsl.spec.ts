import { dslHash, normaliseDsl } from './dsl';

const SEED = '# setup\ns2 = 0.01\n# predict\ns1 = dot(v0, v1)\n# learn\ns3 = s0 - s1\ns4 = s3 * s2\nv2 = scale(v0, s4)\nv1 = add(v1, v2)';

const same = (a: string, b: string) => expect([a, dslHash(a) === dslHash(b)]).toEqual([a, true]);
const differ = (a: string, b: string) => expect([a, dslHash(a) === dslHash(b)]).toEqual([a, false]);

describe('the canonical DSL form (DECISIONS.md §11 duplicates)', () => {
  it('keeps section markers, in one spelling, and drops every other comment and blank line', () => {
    expect(normaliseDsl(SEED)).toBe('# setup:\ns2=0.01\n# predict:\ns1=dot(v0,v1)\n# learn:\ns3=s0-s1\ns4=s3*s2\nv2=scale(v0,s4)\nv1=add(v1,v2)');
    expect(normaliseDsl('#SETUP:\n\n  s2 = 1  # learning rate\n// a note\n#   Predict :  the forward pass\ns1 = s2')).toBe('# setup:\ns2=1\n# predict:\ns1=s2');
  });

  it('counts a statement moved from one section to another as new', () => {
    differ('# predict:\ns1 = dot(v0, v1)\ns3 = s0 - s1\n# learn:\nv1 = add(v1, v0)', '# predict:\ns1 = dot(v0, v1)\n# learn:\ns3 = s0 - s1\nv1 = add(v1, v0)');
    differ(SEED, SEED.replace('# learn\n', ''));
  });

  it('counts whitespace inside statements, comments and blank lines as the same algorithm', () => {
    same(SEED.replace('s3 = s0 - s1', 's3=s0-s1'), SEED);
    same(SEED.replace('dot(v0, v1)', 'dot( v0 ,v1 )\t'), SEED);
    same(`# an evolved variant\n\n${SEED.replace(/\n/g, '\n\n')}\n# the end`, SEED);
    same(SEED.replace(/\n/g, '\r\n'), SEED);
    same(SEED.replace('# setup', '#   setup:   '), SEED);
    same(SEED.replace('s4 = s3 * s2', 's4 = s3 * s2  # step'), SEED);
  });

  it('prints numeric literals in their shortest round-trip form', () => {
    for (const spelling of ['0.010', '.01', '1e-2', '1.0E-2', '0.0100e0', '10e-3']) same(SEED.replace('0.01', spelling), SEED);
    same(SEED.replace('0.01', '0.001'), SEED.replace('0.01', '1e-3'));
    same(SEED.replace('0.01', '2'), SEED.replace('0.01', '2.000'));
    same('s1 = 0.0000001', 's1 = 1e-7');
    differ(SEED.replace('0.01', '0.011'), SEED);
    // Only whole numeric tokens: digits inside names stay as written.
    differ('s10 = s2', 's1 = s2');
    expect(normaliseDsl('v12 = scale(v01, 1.50)\ns1e5 = s0e1')).toBe('v12=scale(v01,1.5)\ns1e5=s0e1');
    // The sign is an operator: -0 keeps its sign (another float than 0), and - 1 is -1.
    expect(normaliseDsl('s1 = -0.0\ns2 = 0.0\ns3 = s1 - 1.0\ns4 = - 2.50')).toBe('s1=-0\ns2=0\ns3=s1-1\ns4=-2.5');
    differ('s1 = -0.0', 's1 = 0.0');
    // Out of double range: kept as written rather than printed as Infinity.
    expect(normaliseDsl('s1 = 1e400')).toBe('s1=1e400');
  });

  it('drops self-assignments (`x = x`), which change nothing', () => {
    same(`${SEED}\ns8 = s8`, SEED);
    same(SEED.replace('# learn\n', '# learn\nv1 = v1\n'), SEED);
    differ(`${SEED}\ns8 = s9`, SEED);
    differ(`${SEED}\ns8 == s8`, SEED);
  });

  it('hashes the canonical form with SHA-256 (hex)', () => {
    expect(dslHash(SEED)).toMatch(/^[0-9a-f]{64}$/);
  });
});

import { artifactUriProblem } from './artifact-uri';

describe('artifactUriProblem', () => {
  it.each([
    'https://cdn.example.org/models/a.bin',
    'https://8.8.8.8/a.bin',
    'https://[2606:4700:4700::1111]/a.bin',
    'http://models.test:8080/a.bin?x=1#f',
  ])('admits %s', (uri) => {
    expect(artifactUriProblem(uri)).toBeNull();
  });

  it.each([
    ['https://user:pass@cdn.example.org/a.bin'],
    ['https://token@cdn.example.org/a.bin'],
    ['https://:@cdn.example.org/a.bin'],
    ['https://@cdn.example.org/a.bin'],
  ])('refuses credentials in %s', (uri) => {
    expect(artifactUriProblem(uri)).toEqual({ kind: 'credentials' });
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://127.0.0.1/a.bin', 'loopback'],
    ['https://127.1/a.bin', 'loopback'],
    ['https://0x7f000001/a.bin', 'loopback'],
    ['https://2130706433/a.bin', 'loopback'],
    ['https://017700000001/a.bin', 'loopback'],
    ['https://[::1]/a.bin', 'loopback'],
    ['https://[::ffff:127.0.0.1]/a.bin', 'reserved'],
    ['https://[fe80::1]/a.bin', 'link-local'],
    ['https://10.0.0.5/a.bin', 'private'],
    ['https://192.168.1.20:8443/a.bin', 'private'],
    ['https://0.0.0.0/a.bin', 'unspecified'],
    ['https://localhost/a.bin', 'local_name'],
    ['https://LOCALHOST./a.bin', 'local_name'],
    ['https://api.localhost/a.bin', 'local_name'],
    ['https://metadata.google.internal/a.bin', 'local_name'],
    ['https://printer.local/a.bin', 'local_name'],
    ['https://nas.home.arpa/a.bin', 'local_name'],
    ['https://intranet/a.bin', 'local_name'],
  ])('refuses the host of %s (%s)', (uri, reason) => {
    expect(artifactUriProblem(uri)).toMatchObject({ kind: 'host', reason });
  });
});

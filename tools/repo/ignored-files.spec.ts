import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

/** What a local stack writes into the clone never shows as a change to commit (issue 37). */
describe('files a local run leaves in the clone', () => {
  it('ignores every data folder of a stack on other ports and the dump Redis writes where it was started', () => {
    const paths = ['.data/coordinator/PG_VERSION', '.data2/stack.json', '.data-other/redis/appendonly.aof', 'dump.rdb'];
    // check-ignore prints each ignored path; --no-index also answers for a path git already tracks.
    expect(git('check-ignore', '--no-index', ...paths).trim().split('\n')).toEqual(paths);
  });

  it('tracks no Redis dump', () => {
    expect(git('ls-files', '--', 'dump.rdb', '**/dump.rdb')).toBe('');
  });
});

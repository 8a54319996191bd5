import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VerificationStatus } from '@rcs/contracts';
import { replayFailureOf } from '../../test/support/replay-failure-of';
import { Deadline } from './deadline';
import { applyPatch, cloneAt, repositoryProblem } from './git-workspace';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

describe('git on the host: clone at the pinned base, apply the patch', () => {
  let root: string;
  let origin: string;
  let first: string;
  let second: string;
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() };
  const options = (budgetMs = 30_000) => ({ env, allowLocalRepositories: true, deadline: new Deadline(budgetMs) });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'runner-git-'));
    origin = join(root, 'origin');
    execFileSync('git', ['init', '-q', '-b', 'main', origin]);
    writeFileSync(join(origin, 'train.py'), 'LR = 1\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-q', '-m', 'one');
    first = git(origin, 'rev-parse', 'HEAD');
    git(origin, 'tag', 'v1');
    writeFileSync(join(origin, 'train.py'), 'LR = 2\n');
    git(origin, 'commit', '-q', '-am', 'two');
    second = git(origin, 'rev-parse', 'HEAD');
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('checks out base_commit_sha when set, else the branch or tag named by base_ref', async () => {
    const spec = { repository: `file://${origin}`, baseRef: 'main', baseCommitSha: first };
    expect(await cloneAt(spec, join(root, 'by-sha'), options())).toBe(first);
    expect(readFileSync(join(root, 'by-sha', 'train.py'), 'utf8')).toBe('LR = 1\n');
    expect(await cloneAt({ ...spec, baseCommitSha: null }, join(root, 'by-branch'), options())).toBe(second);
    expect(await cloneAt({ ...spec, baseRef: 'v1', baseCommitSha: null }, join(root, 'by-tag'), options())).toBe(first);
    expect(await cloneAt({ repository: origin, baseRef: first, baseCommitSha: null }, join(root, 'by-path'), options())).toBe(first);
  });

  it('ends in error for an unknown ref, a refused repository URL and a spent budget', async () => {
    const unknown = await replayFailureOf(cloneAt({ repository: `file://${origin}`, baseRef: 'nope', baseCommitSha: null }, join(root, 'unknown'), options()));
    expect(unknown).toMatchObject({ status: VerificationStatus.Error, note: 'The base ref "nope" is not in the repository.' });
    const local = await replayFailureOf(cloneAt({ repository: `file://${origin}`, baseRef: 'main', baseCommitSha: null }, join(root, 'local'), { ...options(), allowLocalRepositories: false }));
    expect(local.note).toMatch(/ALLOW_LOCAL_REPOSITORIES=true/);
    const late = await replayFailureOf(cloneAt({ repository: `file://${origin}`, baseRef: 'main', baseCommitSha: null }, join(root, 'late'), options(0)));
    expect(late).toMatchObject({ status: VerificationStatus.Error, note: 'The time budget ran out while trying to clone the repository.' });
  });

  it('applies a patch to the index, and rejects one that does not apply', async () => {
    const work = join(root, 'patched');
    await cloneAt({ repository: `file://${origin}`, baseRef: 'main', baseCommitSha: first }, work, options());
    writeFileSync(join(root, 'good.patch'), 'diff --git a/train.py b/train.py\n--- a/train.py\n+++ b/train.py\n@@ -1 +1 @@\n-LR = 1\n+LR = 5\n');
    await applyPatch(work, join(root, 'good.patch'), options());
    expect(readFileSync(join(work, 'train.py'), 'utf8')).toBe('LR = 5\n');
    expect(git(work, 'diff', '--cached', '--name-only')).toBe('train.py');
    writeFileSync(join(root, 'bad.patch'), 'diff --git a/train.py b/train.py\n--- a/train.py\n+++ b/train.py\n@@ -1 +1 @@\n-LR = 9\n+LR = 5\n');
    const bad = await replayFailureOf(applyPatch(work, join(root, 'bad.patch'), options()));
    expect(bad).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/^The patch does not apply to the base: error: patch failed: train.py:1/) });
  });

  it('clones https, ssh and scp-like URLs only, local ones only when allowed', () => {
    expect(repositoryProblem('https://github.com/o/r.git', false)).toBeNull();
    expect(repositoryProblem('ssh://git@host/o/r.git', false)).toBeNull();
    expect(repositoryProblem('git@github.com:o/r.git', false)).toBeNull();
    expect(repositoryProblem('http://host/r.git', false)).toMatch(/only https/);
    expect(repositoryProblem('ext::sh -c evil', false)).toMatch(/only https/);
    expect(repositoryProblem('--upload-pack=evil', false)).toMatch(/starts with "-"/);
    expect(repositoryProblem('/srv/repo', false)).toMatch(/ALLOW_LOCAL_REPOSITORIES/);
    expect(repositoryProblem('/srv/repo', true)).toBeNull();
    expect(repositoryProblem('file:///srv/repo', true)).toBeNull();
  });
});

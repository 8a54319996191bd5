import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const BWRAP_HINT = 'apt-get install bubblewrap (Debian/Ubuntu; bubblewrap on other distributions)';

/**
 * Why the validator runner's sandbox cannot run here, or null when it can. Only the `bwrap` sandbox (the
 * stack's default) is checked: bubblewrap must be on PATH and able to create its namespaces on this host.
 */
export function runnerSandboxProblem(env: NodeJS.ProcessEnv): string | null {
  if ((env.SANDBOX ?? 'bwrap') !== 'bwrap') return null;
  const bwrap = onPath('bwrap', env.PATH ?? '');
  if (bwrap === null) return `bubblewrap (bwrap) is not installed; install it with: ${BWRAP_HINT}`;
  const probe = spawnSync(bwrap, ['--unshare-all', '--unshare-user', '--die-with-parent', '--ro-bind', '/', '/', '--', '/bin/true'], { env: {}, encoding: 'utf8' });
  if (probe.status !== 0) {
    return `bubblewrap cannot create a sandbox on this host (${(probe.error?.message ?? probe.stderr).trim()}); unprivileged user namespaces must be allowed`;
  }
  return null;
}

function onPath(name: string, path: string): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

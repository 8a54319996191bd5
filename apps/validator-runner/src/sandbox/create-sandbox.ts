import { userInfo } from 'node:os';
import { gpuSelectionText } from './accelerators';
import { BwrapSandbox, systemMountArgs } from './bwrap-sandbox';
import { probeCgroups } from './cgroups';
import { DockerSandbox } from './docker-sandbox';
import { createLimitPlan, LimitPlan, resolveExecutable } from './limit-plan';
import { nprocEnforcedFor } from './rlimits';
import { Sandbox, SandboxConfig, SandboxError } from './sandbox.port';
import { UnsafeHostSandbox } from './unsafe-host-sandbox';
import { probeWorkspaceVolumes, WorkspaceVolumes } from './workspace-volume';

/** Builds the configured driver and checks, at boot, that it can work on this host. */
export function createSandbox(config: SandboxConfig): Sandbox {
  const sandbox = buildSandbox(config);
  const unenforced = Object.entries(sandbox.enforcement)
    .filter(([, how]) => how === 'none')
    .map(([limit]) => limit);
  const gpus = config.gpus ? gpuSelectionText(config.gpus.selection) : 'none';
  config.logger.info({ sandbox: sandbox.kind, enforcement: sandbox.enforcement, gpus }, 'sandbox ready');
  if (unenforced.length > 0) {
    config.logger.warn({ sandbox: sandbox.kind, unenforced }, 'some sandbox limits cannot be enforced on this host (no writable cgroup, no mount privilege)');
  }
  return sandbox;
}

function buildSandbox(config: SandboxConfig): Sandbox {
  const { uid, gid } = userInfo();
  switch (config.kind) {
    case 'bwrap': {
      const bwrap = requireExecutable('bwrap', 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)');
      const devices = config.gpus?.deviceNodes ?? [];
      const sandbox = new BwrapSandbox(bwrap, systemMountArgs(), hostLimitPlan(nprocEnforcedFor(uid)), workspaces(config), config.logger, devices);
      sandbox.assertWorks();
      return sandbox;
    }
    case 'docker':
      if (!config.dockerImage) throw new SandboxError('misconfigured', 'sandbox "docker" needs an image');
      return new DockerSandbox(config.dockerImage, `${uid}:${gid}`, workspaces(config), config.logger, config.gpus?.selection);
    case 'none':
      // Unconfined: the host's GPUs are reachable as they are.
      // No user namespace here: RLIMIT_NPROC would count every process of the runner's user, so it is not used.
      return new UnsafeHostSandbox(config.allowUnsafeNone, hostLimitPlan(false), workspaces(config), config.logger);
  }
}

function workspaces(config: SandboxConfig): WorkspaceVolumes {
  return probeWorkspaceVolumes(config.workspaceFs ?? 'auto', config.logger);
}

function hostLimitPlan(nproc: boolean): LimitPlan {
  const bash = requireExecutable('bash', 'install bash');
  const prlimit = requireExecutable('prlimit', 'install util-linux');
  return createLimitPlan({ bash, prlimit, cgroups: probeCgroups(), nproc });
}

function requireExecutable(name: string, hint: string): string {
  const path = resolveExecutable(name);
  if (path === null) throw new SandboxError('misconfigured', `${name} is not installed: ${hint}`);
  return path;
}

import { runHostProcess } from './host-process';
import { LimitPlan, releaseLaunch } from './limit-plan';
import { assertValidRequest, sandboxEnv } from './sandbox-request';
import { WorkspaceVolumes } from './workspace-volume';
import { Sandbox, SandboxEnforcement, SandboxError, SandboxLogger, SandboxRunRequest, SandboxRunResult } from './sandbox.port';

const WARNING =
  'UNSAFE: sandbox "none" runs benchmark code directly on this host with the runner\'s privileges, network and files';

/**
 * The `none` driver: the command runs on the host in its own process group, with the rlimits/cgroups the host
 * allows and nothing else. For development only; it must be allowed explicitly and says so every time.
 */
export class UnsafeHostSandbox implements Sandbox {
  readonly kind = 'none' as const;
  readonly enforcement: SandboxEnforcement;

  constructor(
    allowUnsafeNone: boolean,
    private readonly limits: LimitPlan,
    readonly workspaces: WorkspaceVolumes,
    private readonly logger: SandboxLogger,
  ) {
    if (!allowUnsafeNone) {
      throw new SandboxError('unsafe-none-refused', 'sandbox "none" runs untrusted code unconfined; it needs the explicit allow-unsafe flag');
    }
    this.enforcement = { ...limits.enforcement, disk: workspaces.kind };
    logger.warn({ sandbox: 'none' }, WARNING);
  }

  async run(req: SandboxRunRequest): Promise<SandboxRunResult> {
    assertValidRequest(req);
    const remapped = (req.readOnlyPaths ?? []).find((mount) => mount.host !== mount.sandbox);
    if (remapped) {
      throw new SandboxError('invalid-request', `sandbox "none" cannot show ${remapped.host} at ${remapped.sandbox}; pass the host path as the sandbox path`);
    }
    this.logger.warn({ sandbox: 'none', workspace: req.workspace }, WARNING);
    const launch = this.limits.launch(['/bin/sh', '-c', req.command], req.limits, 2);
    try {
      const { exitCode, signal, timedOut, outputTruncated, output, durationMs } = await runHostProcess({
        argv: launch.argv,
        env: sandboxEnv(req.env),
        cwd: req.workspace,
        timeoutMs: req.timeoutMs,
        outputBytes: req.limits.outputBytes,
        onOutput: req.onOutput,
      });
      return { exitCode, signal, timedOut, outputTruncated, output, durationMs };
    } finally {
      await releaseLaunch(launch, this.logger);
    }
  }
}

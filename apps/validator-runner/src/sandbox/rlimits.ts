import { SandboxLimits } from './sandbox.port';

/**
 * prlimit options applied to the launcher, inherited by everything in the sandbox. RLIMIT_DATA rather than
 * RLIMIT_AS: V8 reserves gigabytes of address space up front, so an address-space cap stops node from starting.
 */
export function rlimitOptions(limits: SandboxLimits, options: { nproc: boolean }): string[] {
  return [
    `--data=${limits.memoryBytes}`,
    '--core=0',
    ...(limits.fileBytes === undefined ? [] : [`--fsize=${limits.fileBytes}`]),
    ...(options.nproc ? [`--nproc=${limits.pids}`] : []),
  ];
}

/**
 * RLIMIT_NPROC binds only when the sandbox runs under a non-root host uid: the kernel exempts the global root
 * user from it, even inside a user namespace.
 */
export function nprocEnforcedFor(hostUid: number): boolean {
  return hostUid !== 0;
}

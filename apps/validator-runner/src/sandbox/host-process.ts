import { ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { OutputTail } from './output-tail';
import { SandboxError, type SandboxRunResult } from './sandbox.port';

/** Time a process group gets between SIGTERM and SIGKILL once the deadline has passed. */
export const KILL_GRACE_MS = 1000;

export interface HostProcessSpec {
  argv: string[];
  /** The launcher's whole environment; 'inherit' only for a launcher that forwards nothing inward (docker). */
  env: Record<string, string> | 'inherit';
  cwd?: string;
  timeoutMs: number;
  outputBytes: number;
  onOutput?: (chunk: string) => void;
  /** Opens fd 3 as a pipe and collects the JSON lines written to it (bwrap --json-status-fd 3). */
  statusFd?: boolean;
  /** Written to fd 4, then closed: arguments that must not appear on a command line (bwrap --args 4). */
  argsFdInput?: Buffer;
  /** Called at the deadline; by default the process group gets SIGTERM. SIGKILL to the group follows after the grace. */
  terminate?: (status: readonly Record<string, unknown>[]) => void;
}

/** What a sandbox reports of a run, and the JSON lines collected from fd 3 (`statusFd`). */
export interface HostProcessOutcome extends SandboxRunResult {
  status: Record<string, unknown>[];
}

/**
 * Runs a launcher in its own process group and settles once its output pipes close (at the latest a grace after
 * it exits). At the deadline, and again once the launcher exits, the group is killed, so nothing that stayed
 * in it outlives the run.
 */
export function runHostProcess(spec: HostProcessSpec): Promise<HostProcessOutcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tail = new OutputTail(spec.outputBytes);
    const status: Record<string, unknown>[] = [];
    let timedOut = false;
    let exit: { code: number | null; signal: string | null } | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const child = spawn(spec.argv[0], spec.argv.slice(1), {
      cwd: spec.cwd,
      env: spec.env === 'inherit' ? undefined : spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', spec.statusFd ? 'pipe' : 'ignore', spec.argsFdInput ? 'pipe' : 'ignore'],
    });
    if (spec.argsFdInput) feed(child.stdio[4], spec.argsFdInput);

    const deadline = setTimeout(() => {
      timedOut = true;
      if (spec.terminate) spec.terminate(status);
      else killGroup(child, 'SIGTERM');
      graceTimer = setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS);
    }, spec.timeoutMs);

    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream?.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        spec.onOutput?.(decoder.write(chunk));
      });
      stream?.on('end', () => {
        const rest = decoder.end();
        if (rest) spec.onOutput?.(rest);
      });
    }
    if (spec.statusFd) collectJsonLines(child.stdio[3], status);

    child.on('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(deadline);
      killGroup(child, 'SIGKILL');
      // Something that left the group may still hold the pipes open; stop waiting for it after the grace.
      drainTimer = setTimeout(() => child.stdio.forEach((stream) => stream?.destroy()), KILL_GRACE_MS);
    });
    child.on('error', (error) => {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      reject(new SandboxError('start-failed', `could not start ${spec.argv[0]}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      const ended = exit ?? { code, signal };
      resolve({
        exitCode: ended.code,
        signal: ended.signal,
        timedOut,
        outputTruncated: tail.truncated,
        output: tail.text(),
        durationMs: Date.now() - started,
        status,
      });
    });
  });
}

/** Signals the child's whole process group; a group already gone (or reaped into another owner) is not an error. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  killPid(-child.pid, signal);
}

export function killPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw error;
  }
}

/** A launcher that died early closes its end; the run's outcome reports that, not this write. */
function feed(stream: ChildProcess['stdio'][number], input: Buffer): void {
  if (!stream || !('end' in stream)) return;
  stream.on('error', () => undefined);
  stream.end(input);
}

function collectJsonLines(stream: ChildProcess['stdio'][number], into: Record<string, unknown>[]): void {
  let pending = '';
  stream?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) pushJson(line, into);
  });
  stream?.on('end', () => pushJson(pending, into));
}

function pushJson(line: string, into: Record<string, unknown>[]): void {
  if (line.trim() === '') return;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null) into.push(value as Record<string, unknown>);
  } catch {
    // Not one of bwrap's status documents; nothing else writes to this descriptor.
  }
}

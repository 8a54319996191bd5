import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { Sandbox } from '../src/sandbox/sandbox.port';
import { limits } from './support/sandbox-escape-cases';

/**
 * The GPU binds of SANDBOX_GPUS in real bubblewrap. This host has no NVIDIA GPU, so character devices that
 * every host has stand in for the driver's nodes: /dev/zero as /dev/nvidia0, /dev/null as /dev/nvidiactl.
 * (Running nvidia-smi in the sandbox needs a GPU host and is not part of this suite.)
 */
describe('bwrap sandbox with device binds (real bubblewrap)', () => {
  let workspace: string;
  const logger = { info: () => undefined, warn: () => undefined };
  const run = (sandbox: Sandbox, command: string) => sandbox.run({ command, workspace, env: {}, timeoutMs: 10_000, limits });

  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'rcs-sandbox-devices-'));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('exposes the bound nodes as usable devices at their /dev paths, while /dev stays read-only', async () => {
    const sandbox = createSandbox({
      kind: 'bwrap',
      allowUnsafeNone: false,
      logger,
      gpus: {
        selection: { kind: 'indices', indices: [0] },
        deviceNodes: [
          { host: '/dev/null', sandbox: '/dev/nvidiactl' },
          { host: '/dev/zero', sandbox: '/dev/nvidia0' },
        ],
      },
    });
    const result = await run(
      sandbox,
      'test -c /dev/nvidia0 && test -c /dev/nvidiactl && echo char-devices; ' +
        'head -c 4 /dev/nvidia0 | od -An -tx1; ' +
        'echo ping > /dev/nvidiactl && echo device-writable; ' +
        'touch /dev/nvidia1 2>/dev/null || echo dev-read-only',
    );
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.output.split('\n').map((line) => line.trim())).toEqual(['char-devices', '00 00 00 00', 'device-writable', 'dev-read-only', '']);
  });

  it('has no NVIDIA node at all without GPUs (SANDBOX_GPUS=none)', async () => {
    const sandbox = createSandbox({ kind: 'bwrap', allowUnsafeNone: false, logger });
    const result = await run(sandbox, 'ls /dev | grep -c nvidia; true');
    expect(result).toMatchObject({ exitCode: 0, output: '0\n' });
  });
});

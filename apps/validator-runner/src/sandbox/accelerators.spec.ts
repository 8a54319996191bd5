import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@rcs/config';
import { acceleratorReport, capabilitiesOf, detectAccelerators, GpuSelection, parseNvidiaSmiCsv } from './accelerators';

/** A device directory of files named like the driver's nodes (detection reads names only), and an nvidia-smi script. */
describe('detectAccelerators', () => {
  let root: string;
  let dev: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'rcs-accelerators-'));
    dev = join(root, 'dev');
    mkdirSync(dev);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const nodes = (...names: string[]) => {
    for (const name of names) writeFileSync(join(dev, name), '');
  };
  /** An nvidia-smi that prints `csv` for exactly the query the runner asks, and fails on anything else. */
  const nvidiaSmi = (csv: string, exitCode = 0): string => {
    const path = join(root, 'nvidia-smi');
    const query = '--query-gpu=index,name,memory.total --format=csv,noheader,nounits';
    writeFileSync(path, `#!/bin/sh\n[ "$*" = "${query}" ] || { echo "unexpected query: $*" >&2; exit 9; }\nprintf '%s' '${csv}'\nexit ${exitCode}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const problemsOf = (selection: GpuSelection, probe = { devRoot: dev, nvidiaSmi: null }): string[] => {
    try {
      detectAccelerators(selection, probe);
      return [];
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return error.problems;
    }
  };

  it('exposes nothing with none, but still reports the host GPUs and what nvidia-smi says of them', () => {
    nodes('nvidiactl', 'nvidia-uvm', 'nvidia0', 'nvidia1', 'nvidia-caps', 'null');
    const found = detectAccelerators({ kind: 'none' }, { devRoot: dev, nvidiaSmi: nvidiaSmi('0, NVIDIA H200, 143771\n1, NVIDIA H200, 143771\n') });
    expect(found).toMatchObject({ exposed: [], deviceNodes: [], capabilities: { gpu_count: 0, gpu_memory_gb: 0 }, nvidiaSmi: { status: 'ok' } });
    expect(found.gpus).toEqual([
      { index: 0, name: 'NVIDIA H200', memoryMib: 143771 },
      { index: 1, name: 'NVIDIA H200', memoryMib: 143771 },
    ]);
  });

  it('with all, binds every GPU node and the shared nodes that exist, and declares the smallest memory in GB', () => {
    nodes('nvidiactl', 'nvidia-uvm', 'nvidia-uvm-tools', 'nvidia0', 'nvidia1', 'nvidia10');
    const smi = nvidiaSmi('0, NVIDIA A100-SXM4-80GB, 81920\n1, NVIDIA A100-SXM4-40GB, 40960\n10, NVIDIA A100-SXM4-80GB, 81920\n');
    const found = detectAccelerators({ kind: 'all' }, { devRoot: dev, nvidiaSmi: smi });
    expect(found.exposed).toEqual([0, 1, 10]);
    expect(found.deviceNodes).toEqual(
      ['nvidiactl', 'nvidia-uvm', 'nvidia-uvm-tools', 'nvidia0', 'nvidia1', 'nvidia10'].map((name) => ({ host: join(dev, name), sandbox: `/dev/${name}` })),
    );
    // 40960 MiB = 42.95 GB (10^9 bytes), rounded down.
    expect(found.capabilities).toEqual({ gpu_count: 3, gpu_memory_gb: 42.94 });
  });

  it('with indices, binds only the selected GPUs (nvidia-modeset too where present)', () => {
    nodes('nvidiactl', 'nvidia-modeset', 'nvidia0', 'nvidia1', 'nvidia2');
    const found = detectAccelerators({ kind: 'indices', indices: [0, 2] }, { devRoot: dev, nvidiaSmi: null });
    expect(found.deviceNodes.map((node) => node.sandbox)).toEqual(['/dev/nvidiactl', '/dev/nvidia-modeset', '/dev/nvidia0', '/dev/nvidia2']);
    expect(found.exposed).toEqual([0, 2]);
    // Without nvidia-smi the memory is unknown: declared as 0, so only tasks that ask for no memory match.
    expect(found).toMatchObject({ capabilities: { gpu_count: 2, gpu_memory_gb: 0 }, nvidiaSmi: { status: 'absent' } });
    expect(found.gpus.map((gpu) => gpu.name)).toEqual([null, null, null]);
  });

  it('refuses to start when a selected GPU is missing, naming the missing device and the ones found', () => {
    nodes('nvidiactl', 'nvidia0');
    expect(problemsOf({ kind: 'indices', indices: [0, 1, 3] })).toEqual([
      `SANDBOX_GPUS=0,1,3 selects GPU 1, but ${join(dev, 'nvidia1')} does not exist on this host (NVIDIA GPUs found: ${join(dev, 'nvidia0')})`,
      `SANDBOX_GPUS=0,1,3 selects GPU 3, but ${join(dev, 'nvidia3')} does not exist on this host (NVIDIA GPUs found: ${join(dev, 'nvidia0')})`,
    ]);
  });

  it('refuses all on a host without GPUs, and any GPU without the driver control device', () => {
    expect(problemsOf({ kind: 'all' })).toEqual([`SANDBOX_GPUS=all, but this host has no NVIDIA GPU: there is no ${join(dev, 'nvidia0')} (nor any ${join(dev, 'nvidiaN')})`]);
    expect(problemsOf({ kind: 'indices', indices: [0] })).toEqual([
      `SANDBOX_GPUS=0 selects GPU 0, but ${join(dev, 'nvidia0')} does not exist on this host (NVIDIA GPUs found: none)`,
      `SANDBOX_GPUS=0 needs the NVIDIA driver's control device ${join(dev, 'nvidiactl')}, which does not exist (is the driver loaded?)`,
    ]);
    nodes('nvidia0');
    expect(problemsOf({ kind: 'all' })).toEqual([`SANDBOX_GPUS=all needs the NVIDIA driver's control device ${join(dev, 'nvidiactl')}, which does not exist (is the driver loaded?)`]);
    expect(problemsOf({ kind: 'none' })).toEqual([]);
  });

  it('keeps going when nvidia-smi fails, and says why in the report', () => {
    nodes('nvidiactl', 'nvidia0');
    const found = detectAccelerators({ kind: 'all' }, { devRoot: dev, nvidiaSmi: nvidiaSmi('NVIDIA-SMI has failed', 9) });
    expect(found.nvidiaSmi).toEqual({ status: 'failed', error: 'exit 9: NVIDIA-SMI has failed' });
    expect(found.capabilities).toEqual({ gpu_count: 1, gpu_memory_gb: 0 });
    expect(acceleratorReport(found)).toEqual({
      sandbox_gpus: 'all',
      gpus: [{ index: 0, device: '/dev/nvidia0', name: null, memory_mib: null, exposed: true }],
      capabilities: { gpu_count: 1, gpu_memory_gb: 0 },
      nvidia_smi: { status: 'failed', error: 'exit 9: NVIDIA-SMI has failed' },
    });
  });

  it('reports this host as it is: no GPU selected by default, nothing bound', () => {
    const found = detectAccelerators({ kind: 'none' });
    expect(found).toMatchObject({ exposed: [], deviceNodes: [], capabilities: { gpu_count: 0, gpu_memory_gb: 0 } });
  });
});

describe('parseNvidiaSmiCsv', () => {
  it('reads index, name and memory in MiB per line, unknown memory as null, and skips other lines', () => {
    expect(parseNvidiaSmiCsv('0, NVIDIA H200, 143771\n1, Tesla T4, [N/A]\n\nNo devices were found\n')).toEqual([
      { index: 0, name: 'NVIDIA H200', memoryMib: 143771 },
      { index: 1, name: 'Tesla T4', memoryMib: null },
    ]);
  });
});

describe('capabilitiesOf', () => {
  it('counts the exposed GPUs and takes the smallest memory, in GB of 10^9 bytes rounded down to 0.01', () => {
    const gpus = [
      { index: 0, name: 'a', memoryMib: 81559 },
      { index: 1, name: 'b', memoryMib: 24564 },
    ];
    expect(capabilitiesOf(gpus, [0])).toEqual({ gpu_count: 1, gpu_memory_gb: 85.52 });
    expect(capabilitiesOf(gpus, [0, 1])).toEqual({ gpu_count: 2, gpu_memory_gb: 25.75 });
    expect(capabilitiesOf(gpus, [])).toEqual({ gpu_count: 0, gpu_memory_gb: 0 });
  });
});

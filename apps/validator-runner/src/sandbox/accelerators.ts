import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@rcs/config';
import { resolveExecutable } from './limit-plan';

/** SANDBOX_GPUS: no GPU in the sandbox (the default), every GPU of the host, or the GPUs of these device indices. */
export type GpuSelection = { kind: 'none' } | { kind: 'all' } | { kind: 'indices'; indices: number[] };

/** The highest device index SANDBOX_GPUS takes (64 GPUs, the most a task may ask for). */
export const MAX_GPU_INDEX = 63;

/**
 * The driver's shared device nodes: every CUDA process opens nvidiactl and nvidia-uvm (nvidia-uvm-tools for
 * profilers, nvidia-modeset on display drivers). Bound where present, with /dev/nvidiaN of each exposed GPU.
 */
export const NVIDIA_SHARED_NODES = ['nvidiactl', 'nvidia-uvm', 'nvidia-uvm-tools', 'nvidia-modeset'] as const;

/** What nvidia-smi is asked: one CSV line per GPU, memory in MiB. */
export const NVIDIA_SMI_QUERY = ['--query-gpu=index,name,memory.total', '--format=csv,noheader,nounits'];

const NVIDIA_SMI_TIMEOUT_MS = 15_000;
const MIB = 1024 * 1024;
const GPU_NODE = /^nvidia(\d+)$/;

/** `none`, `all` or `0,1` as SANDBOX_GPUS; a sentence saying what is wrong otherwise. */
export function parseGpuSelection(raw: string): GpuSelection | string {
  const value = raw.trim().toLowerCase();
  if (value === 'none') return { kind: 'none' };
  if (value === 'all') return { kind: 'all' };
  const indices: number[] = [];
  for (const part of value.split(',').map((item) => item.trim())) {
    if (!/^\d{1,2}$/.test(part) || Number(part) > MAX_GPU_INDEX) {
      return `SANDBOX_GPUS must be none, all, or a comma list of GPU device indices 0..${MAX_GPU_INDEX} such as 0,1 (got ${JSON.stringify(raw)})`;
    }
    if (indices.includes(Number(part))) return `SANDBOX_GPUS names GPU ${Number(part)} twice (got ${JSON.stringify(raw)})`;
    indices.push(Number(part));
  }
  return { kind: 'indices', indices: indices.sort((a, b) => a - b) };
}

/** The setting as an operator writes it. */
export function gpuSelectionText(selection: GpuSelection): string {
  return selection.kind === 'indices' ? selection.indices.join(',') : selection.kind;
}

/** One NVIDIA GPU of the host: its /dev/nvidiaN node, and what nvidia-smi says of it (null when it cannot). */
export interface HostGpu {
  index: number;
  name: string | null;
  memoryMib: number | null;
}

/** What a validator declares with its scan (the coordinator's ValidatorCapabilitiesDto). */
export interface GpuCapabilities {
  gpu_count: number;
  /** Memory of the smallest exposed GPU in GB (10^9 bytes), rounded down to 0.01; 0 when none or unknown. */
  gpu_memory_gb: number;
}

export type NvidiaSmiStatus = { status: 'ok' } | { status: 'absent' } | { status: 'failed'; error: string };

/** The accelerators of this runner, found once at start-up. */
export interface Accelerators {
  selection: GpuSelection;
  /** Every NVIDIA GPU of the host, whether exposed or not. */
  gpus: HostGpu[];
  /** Device indices the sandbox exposes. */
  exposed: number[];
  /** Device nodes a bwrap sandbox binds: the host's node at its /dev path. Empty when no GPU is exposed. */
  deviceNodes: { host: string; sandbox: string }[];
  capabilities: GpuCapabilities;
  nvidiaSmi: NvidiaSmiStatus;
}

/** Where detection looks: the device directory and nvidia-smi (null: not installed). Injectable for tests. */
export interface AcceleratorProbe {
  devRoot: string;
  nvidiaSmi: string | null;
}

export function hostAcceleratorProbe(): AcceleratorProbe {
  return { devRoot: '/dev', nvidiaSmi: resolveExecutable('nvidia-smi') };
}

/**
 * Finds the host's NVIDIA GPUs (its /dev/nvidiaN nodes; name and memory from nvidia-smi when installed) and
 * what the sandbox exposes of them. Throws ConfigError naming each missing device when SANDBOX_GPUS selects
 * a GPU this host does not have, so a runner never leases GPU jobs it would fail.
 */
export function detectAccelerators(selection: GpuSelection, probe: AcceleratorProbe = hostAcceleratorProbe()): Accelerators {
  const found = gpuNodeIndices(probe.devRoot);
  const smi = probe.nvidiaSmi === null ? { status: { status: 'absent' } as const, gpus: new Map<number, HostGpu>() } : queryNvidiaSmi(probe.nvidiaSmi);
  const gpus = found.map((index) => ({ index, name: smi.gpus.get(index)?.name ?? null, memoryMib: smi.gpus.get(index)?.memoryMib ?? null }));
  const exposed = selection.kind === 'none' ? [] : selection.kind === 'all' ? found : selection.indices;
  const node = (name: string) => join(probe.devRoot, name);
  const setting = `SANDBOX_GPUS=${gpuSelectionText(selection)}`;
  const problems: string[] = [];
  if (selection.kind === 'all' && found.length === 0) problems.push(`${setting}, but this host has no NVIDIA GPU: there is no ${node('nvidia0')} (nor any ${node('nvidiaN')})`);
  const foundText = found.length === 0 ? 'none' : found.map((index) => node(`nvidia${index}`)).join(', ');
  for (const index of exposed.filter((wanted) => !found.includes(wanted))) {
    problems.push(`${setting} selects GPU ${index}, but ${node(`nvidia${index}`)} does not exist on this host (NVIDIA GPUs found: ${foundText})`);
  }
  if (exposed.length > 0 && !existsSync(node('nvidiactl'))) {
    problems.push(`${setting} needs the NVIDIA driver's control device ${node('nvidiactl')}, which does not exist (is the driver loaded?)`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const shared = exposed.length === 0 ? [] : NVIDIA_SHARED_NODES.filter((name) => existsSync(node(name)));
  const deviceNodes = [...shared, ...exposed.map((index) => `nvidia${index}`)].map((name) => ({ host: node(name), sandbox: `/dev/${name}` }));
  return { selection, gpus, exposed, deviceNodes, capabilities: capabilitiesOf(gpus, exposed), nvidiaSmi: smi.status };
}

/** The count of exposed GPUs and the memory of the smallest; memory 0 when nvidia-smi could not say. */
export function capabilitiesOf(gpus: HostGpu[], exposed: number[]): GpuCapabilities {
  const memories = exposed.map((index) => gpus.find((gpu) => gpu.index === index)?.memoryMib ?? null);
  const known = memories.every((memory): memory is number => memory !== null);
  const smallest = exposed.length > 0 && known ? Math.min(...memories) : 0;
  return { gpu_count: exposed.length, gpu_memory_gb: Math.floor((smallest * MIB) / 1e7) / 100 };
}

/** N of each /dev/nvidiaN, ascending. */
function gpuNodeIndices(devRoot: string): number[] {
  let names: string[];
  try {
    names = readdirSync(devRoot);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const match = GPU_NODE.exec(name);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);
}

function queryNvidiaSmi(executable: string): { status: NvidiaSmiStatus; gpus: Map<number, HostGpu> } {
  const run = spawnSync(executable, NVIDIA_SMI_QUERY, { encoding: 'utf8', timeout: NVIDIA_SMI_TIMEOUT_MS });
  if (run.error || run.status !== 0) {
    const error = run.error?.message ?? `exit ${run.status ?? run.signal}: ${(run.stderr || run.stdout).trim().slice(0, 500)}`;
    return { status: { status: 'failed', error }, gpus: new Map() };
  }
  return { status: { status: 'ok' }, gpus: new Map(parseNvidiaSmiCsv(run.stdout).map((gpu) => [gpu.index, gpu])) };
}

/** `index, name, memory.total` lines (`0, NVIDIA H200, 143771`); a memory nvidia-smi cannot tell (`[N/A]`) is null. */
export function parseNvidiaSmiCsv(text: string): HostGpu[] {
  return text.split('\n').flatMap((line) => {
    const fields = line.split(',').map((field) => field.trim());
    if (fields.length < 3 || !/^\d+$/.test(fields[0])) return [];
    const memory = fields[fields.length - 1];
    return [{ index: Number(fields[0]), name: fields.slice(1, -1).join(', ') || null, memoryMib: /^\d+$/.test(memory) ? Number(memory) : null }];
  });
}

/** The accelerators as `/readyz` reports them. */
export interface AcceleratorReport {
  sandbox_gpus: string;
  gpus: { index: number; device: string; name: string | null; memory_mib: number | null; exposed: boolean }[];
  capabilities: GpuCapabilities;
  nvidia_smi: NvidiaSmiStatus;
}

export function acceleratorReport(accelerators: Accelerators): AcceleratorReport {
  return {
    sandbox_gpus: gpuSelectionText(accelerators.selection),
    gpus: accelerators.gpus.map((gpu) => ({
      index: gpu.index,
      device: `/dev/nvidia${gpu.index}`,
      name: gpu.name,
      memory_mib: gpu.memoryMib,
      exposed: accelerators.exposed.includes(gpu.index),
    })),
    capabilities: accelerators.capabilities,
    nvidia_smi: accelerators.nvidiaSmi,
  };
}

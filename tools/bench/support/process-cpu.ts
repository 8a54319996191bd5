import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) used so far, by group: one pid each, or every process with a command name. */
export type CpuGroups = Record<string, { pid: number } | { command: string }>;

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** `/proc/<pid>/stat`: command, parent, own CPU seconds and those of its waited-for children, or null once gone. */
function readStat(pid: number): { command: string; parent: number; seconds: number; children: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command sits in parentheses and may itself hold spaces or parentheses.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  // After the command: state, ppid, …, utime (14th field of the line), stime, cutime, cstime.
  const fields = text.slice(close + 2).split(' ').map(Number);
  return {
    command: text.slice(open + 1, close),
    parent: fields[1],
    seconds: (fields[11] + fields[12]) / TICKS_PER_SECOND,
    children: (fields[13] + fields[14]) / TICKS_PER_SECOND,
  };
}

/**
 * The CPU seconds each group has used so far. A named command sums its live processes and, for the
 * group's root processes (the Postgres postmaster), the children they have reaped: a backend that
 * exits mid-run still counts.
 */
export function cpuSeconds(groups: CpuGroups): Record<string, number> {
  const totals: Record<string, number> = {};
  const byCommand = new Map<string, string>();
  for (const [name, group] of Object.entries(groups)) {
    totals[name] = 0;
    if ('pid' in group) totals[name] = readStat(group.pid)?.seconds ?? 0;
    else byCommand.set(group.command, name);
  }
  if (byCommand.size > 0) {
    const stats = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map((entry) => ({ pid: Number(entry), stat: readStat(Number(entry)) }));
    const commandOf = new Map(stats.map(({ pid, stat }) => [pid, stat?.command]));
    for (const { stat } of stats) {
      const name = stat === null ? undefined : byCommand.get(stat.command);
      if (name === undefined || stat === null) continue;
      totals[name] += stat.seconds + (commandOf.get(stat.parent) === stat.command ? 0 : stat.children);
    }
  }
  return totals;
}

/** What each group used between two readings. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(before).map((name) => [name, Math.max(0, (after[name] ?? 0) - before[name])]));
}

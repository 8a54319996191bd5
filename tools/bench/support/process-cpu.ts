import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) used so far, by group: one pid each, or every process with a command name. */
export type CpuGroups = Record<string, { pid: number } | { command: string }>;

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** `/proc/<pid>/stat`: the command name and utime + stime in seconds, or null once the process is gone. */
function readStat(pid: number): { command: string; seconds: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command sits in parentheses and may itself hold spaces or parentheses.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  // Fields 14 and 15 of the whole line (utime, stime) are 12 and 13 after the command.
  return { command: text.slice(open + 1, close), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
}

/** The CPU seconds each group has used so far (a named command sums all its live processes). */
export function cpuSeconds(groups: CpuGroups): Record<string, number> {
  const totals: Record<string, number> = {};
  const byCommand = new Map<string, string>();
  for (const [name, group] of Object.entries(groups)) {
    totals[name] = 0;
    if ('pid' in group) totals[name] = readStat(group.pid)?.seconds ?? 0;
    else byCommand.set(group.command, name);
  }
  if (byCommand.size > 0) {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readStat(Number(entry));
      const name = stat === null ? undefined : byCommand.get(stat.command);
      if (name !== undefined && stat !== null) totals[name] += stat.seconds;
    }
  }
  return totals;
}

/** What each group used between two readings. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(before).map((name) => [name, Math.max(0, (after[name] ?? 0) - before[name])]));
}

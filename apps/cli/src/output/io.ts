import { terminalSafeLine } from './terminal-safe';

/** Where a command writes: stdout for results (exactly the server's JSON under `--json`), stderr for people. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal (progress bars redraw in place only there). */
  stderrIsTty: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stderrIsTty: process.stderr.isTTY === true,
  };
}

/** A plain table: a header row, then one row per item, columns padded to their widest cell. */
export function table(headers: string[], rawRows: string[][]): string {
  // Cells carry server text: one line each, without terminal controls, so columns are measured as shown.
  const rows = rawRows.map((row) => row.map(terminalSafeLine));
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}

/** `key: value` lines, keys aligned. */
export function fields(entries: [string, unknown][]): string {
  const width = Math.max(...entries.map(([key]) => key.length));
  return `${entries.map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${display(value)}`).join('\n')}\n`;
}

export function display(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return terminalSafeLine(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

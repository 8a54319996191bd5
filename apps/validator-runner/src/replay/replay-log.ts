import { Redactor } from './redaction';

/** The part of a command's output one log section keeps: results and errors come last. */
const OUTPUT_TAIL_BYTES = 16 * 1024;

/**
 * The replay log posted with a result (admins read it): one line per phase event and the output tail of
 * each sandboxed command. Redacted as a whole, then capped (head and tail kept), so a cut can never leave
 * half of a private value behind.
 */
export class ReplayLog {
  private readonly parts: string[] = [];

  constructor(
    private readonly redactor: Redactor,
    private readonly capBytes: number,
  ) {}

  line(phase: string, message: string): void {
    this.parts.push(`[${new Date().toISOString()}] ${phase}: ${message}\n`);
  }

  output(phase: string, output: string, truncated: boolean): void {
    const tail = tailBytes(output, OUTPUT_TAIL_BYTES);
    const cut = truncated || tail.length < output.length ? ' (earlier output cut)' : '';
    this.parts.push(`----- ${phase} output${cut} -----\n${tail}${tail.endsWith('\n') || tail === '' ? '' : '\n'}----- end of ${phase} output -----\n`);
  }

  /** The redacted text of at most capBytes bytes. */
  render(): string {
    return capBytes(this.redactor.redact(this.parts.join('')), this.capBytes);
  }
}

function tailBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= max ? text : bytes.subarray(bytes.length - max).toString('utf8');
}

/** The first quarter and the last part of the text, with a marker saying how much was cut. */
export function capBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  const marker = (cut: number) => `\n[… ${cut} bytes cut …]\n`;
  const room = max - Buffer.byteLength(marker(bytes.length));
  const head = Math.floor(room / 4);
  const tail = room - head;
  const cut = bytes.length - head - tail;
  // A cut inside a character decodes to U+FFFD, which may be longer than what it replaces: drop it.
  const start = bytes.subarray(0, head).toString('utf8').replace(/\uFFFD+$/, '');
  const end = bytes.subarray(bytes.length - tail).toString('utf8').replace(/^\uFFFD+/, '');
  return `${start}${marker(cut)}${end}`;
}

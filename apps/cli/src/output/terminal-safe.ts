import type { CliIo } from './io';

/**
 * What a terminal would act on rather than show (issue 35 item 3: `rcs onboard` printed a hostile server's
 * window-title, clear-screen and hidden-text sequences as received):
 * - ESC sequences: CSI (`ESC [` … final byte), OSC (`ESC ]` … BEL or ST), DCS/SOS/PM/APC (`ESC P|X|^|_` … ST),
 *   and every other two-character escape;
 * - the 8-bit forms (C1 controls U+0080–U+009F, CSI U+009B and OSC U+009D among them);
 * - C0 controls but tab and newline (a carriage return or backspace can overwrite what was printed), and DEL;
 * - bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder what is shown.
 */
const TERMINAL_CONTROLS = new RegExp(
  [
    '\\u001b\\[[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?',
    '\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)?',
    '\\u001b[PX^_][^\\u001b]*(?:\\u001b\\\\)?',
    '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]?',
    '[\\u0080-\\u009f]',
    '[\\u0000-\\u0008\\u000b-\\u001f\\u007f]',
    '[\\u202a-\\u202e\\u2066-\\u2069]',
  ].join('|'),
  'g',
);

/** `text` with every terminal control sequence removed; tabs and newlines stay. */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROLS, '');
}

/** One line for a table cell or a `key: value` field: controls removed, and tabs and newlines as spaces. */
export function terminalSafeLine(text: string): string {
  return terminalSafe(text).replace(/[\t\n]/g, ' ');
}

/**
 * The io a command prints for people through: what it writes on stdout has its terminal controls removed (every
 * server-provided string reaches the terminal through it). `--json` output does not come here: it stays byte-exact.
 * stderr is left as written: the CLI's own progress bars redraw there, and server text reaches it through
 * `CommandContext.note` and the error report, which clean it themselves.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  return { stdout: (text) => io.stdout(terminalSafe(text)), stderr: (text) => io.stderr(text), stderrIsTty: io.stderrIsTty };
}

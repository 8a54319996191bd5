import { terminalSafe, terminalSafeLine } from './terminal-safe';

const ESC = '\u001b';

describe('terminalSafe', () => {
  it.each([
    ['a window title (OSC 0, BEL)', `${ESC}]0;pwned\u0007title`, 'title'],
    ['a window title (OSC 2, ST)', `${ESC}]2;pwned${ESC}\\title`, 'title'],
    ['a hyperlink (OSC 8)', `${ESC}]8;;https://evil.test${ESC}\\click${ESC}]8;;${ESC}\\`, 'click'],
    ['clear screen and home (CSI)', `${ESC}[2J${ESC}[Hclean`, 'clean'],
    ['hidden text (SGR 8) and colours', `${ESC}[8msecret${ESC}[0m ${ESC}[1;31mred${ESC}[m`, 'secret red'],
    ['a private mode (CSI ?)', `${ESC}[?1049hscreen`, 'screen'],
    ['a DCS string', `${ESC}Pq#0;2;0;0;0${ESC}\\after`, 'after'],
    ['a two-character escape (reset)', `${ESC}cafter`, 'after'],
    ['8-bit CSI and OSC', '\u009b2Jx\u009d0;t\u0007y', '2Jx0;ty'],
    ['carriage return, backspace, bell and DEL', 'over\rwrite\b\u0007\u007f!', 'overwrite!'],
    ['bidirectional overrides', 'abc\u202edef\u2066ghi', 'abcdefghi'],
    ['an escape cut off at the end', `text${ESC}[31`, 'text'],
  ])('removes %s', (_name, input, shown) => {
    expect(terminalSafe(input)).toBe(shown);
  });

  it('keeps text, tabs, newlines and non-ASCII as they are', () => {
    const text = 'loss (min)\t0.61\n# Onboarding — ünïcode ✓ 漢字 😀\n';
    expect(terminalSafe(text)).toBe(text);
  });

  it('makes one line of a cell', () => {
    expect(terminalSafeLine(`two\nlines\tand ${ESC}[2Jmore`)).toBe('two lines and more');
  });
});

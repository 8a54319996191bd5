const SIMPLE_ESCAPES = new Map<string, number>([
  ['a', 0x07],
  ['b', 0x08],
  ['t', 0x09],
  ['n', 0x0a],
  ['v', 0x0b],
  ['f', 0x0c],
  ['r', 0x0d],
  ['"', 0x22],
  ['\\', 0x5c],
]);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export type QuotedName = { ok: true; name: string; end: number } | { ok: false; reason: string };

/**
 * Reads a file name git wrote in C-style quotes (`"a/f\303\251.txt"`, as with core.quotepath) starting
 * at `text[start] === '"'`. The escaped bytes are decoded as UTF-8; `end` is the index after the closing quote.
 */
export function readQuotedName(text: string, start: number): QuotedName {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      try {
        return { ok: true, name: UTF8.decode(Uint8Array.from(bytes)), end: i + 1 };
      } catch {
        return { ok: false, reason: 'a quoted file name is not valid UTF-8' };
      }
    }
    if (char !== '\\') {
      const codePoint = text.codePointAt(i) ?? 0;
      const encoded = String.fromCodePoint(codePoint);
      bytes.push(...Buffer.from(encoded, 'utf8'));
      i += encoded.length;
      continue;
    }
    const simple = SIMPLE_ESCAPES.get(text[i + 1]);
    if (simple !== undefined) {
      bytes.push(simple);
      i += 2;
    } else if (/^[0-3][0-7][0-7]$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(parseInt(text.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      return { ok: false, reason: 'a quoted file name has an invalid escape sequence' };
    }
  }
  return { ok: false, reason: 'a quoted file name has no closing quote' };
}

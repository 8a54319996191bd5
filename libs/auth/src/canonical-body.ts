/**
 * BT-AUTH-V1 canonical body (DECISIONS.md §2): the request's JSON value re-written like CPython's
 * `json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`, except that every
 * number keeps the lexeme it was sent with. A small parser of our own does this because
 * `JSON.parse` loses number lexemes (`254.0`, `1e-06`, 30-digit integers).
 */

/** The body is not one JSON value (the route answers 400 `malformed_body`). */
export class CanonicalBodyError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'CanonicalBodyError';
  }
}

// CPython's own recursion limit refuses deeper bodies too; this keeps our stack bounded.
const MAX_DEPTH = 1000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Canonical form of a raw request body; no body or an empty body gives `''`. */
export function canonicalBody(raw: string | Buffer | null | undefined): string {
  if (raw === null || raw === undefined || raw.length === 0) return '';
  return new CanonicalWriter(typeof raw === 'string' ? raw : decodeUtf8(raw)).document();
}

function decodeUtf8(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new CanonicalBodyError('Body is not valid UTF-8', 0);
  }
}

/** Orders strings by Unicode code point, as Python sorts `str` (UTF-16 order differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    // The differing unit may end a surrogate pair that began on the (shared) previous unit.
    const start = i > 0 && isHighSurrogate(a.charCodeAt(i - 1)) ? i - 1 : i;
    const x = codePoint(a, start);
    const y = codePoint(b, start);
    // Equal only when both hold the same lone high surrogate there: the next characters decide.
    return x !== y ? x - y : codePoint(a, i) - codePoint(b, i);
  }
  return a.length - b.length;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** The code point starting at unit `i` (a lone surrogate is its own value). */
function codePoint(s: string, i: number): number {
  return s.codePointAt(i) ?? 0;
}

// CPython's ESCAPE_ASCII: quote, backslash, and every unit outside printable ASCII.
const NEEDS_ESCAPE = /["\\]|[^ -~]/;
const ESCAPE_ALL = /["\\]|[^ -~]/g;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** A JSON string literal as CPython writes it with `ensure_ascii=True`. */
export function encodeJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return `"${s.replace(ESCAPE_ALL, escapeUnit)}"`;
}

// Each UTF-16 unit on its own: astral characters become their surrogate pair, lone surrogates stay.
function escapeUnit(c: string): string {
  return SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** Recursive-descent parser that writes the canonical text of each value as it reads it. */
class CanonicalWriter {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(): string {
    const out = this.value(0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail('Unexpected data after the JSON value');
    return out;
  }

  private value(depth: number): string {
    this.skipWhitespace();
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */:
        return this.object(depth + 1);
      case 0x5b /* [ */:
        return this.array(depth + 1);
      case 0x22 /* " */:
        return encodeJsonString(this.string());
      case 0x74 /* t */:
        return this.literal('true');
      case 0x66 /* f */:
        return this.literal('false');
      case 0x6e /* n */:
        return this.literal('null');
      default:
        return this.number();
    }
  }

  private object(depth: number): string {
    this.enter(depth);
    // Map.set keeps the last value of a repeated key, as a Python dict does.
    const members = new Map<string, string>();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return '{}';
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('Expected a string key');
      const key = this.string();
      this.skipWhitespace();
      this.expect(0x3a, "':'");
      members.set(key, this.value(depth));
      if (this.endOfContainer(0x7d, "',' or '}'")) break;
    }
    const sorted = [...members].sort(([a], [b]) => compareCodePoints(a, b));
    return `{${sorted.map(([k, v]) => `${encodeJsonString(k)}:${v}`).join(',')}}`;
  }

  private array(depth: number): string {
    this.enter(depth);
    const items: string[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return '[]';
    }
    for (;;) {
      items.push(this.value(depth));
      if (this.endOfContainer(0x5d, "',' or ']'")) break;
    }
    return `[${items.join(',')}]`;
  }

  /** Consumes `,` (more to come) or the closing bracket (done). */
  private endOfContainer(close: number, expected: string): boolean {
    this.skipWhitespace();
    const c = this.text.charCodeAt(this.pos);
    if (c !== close && c !== 0x2c) this.fail(`Expected ${expected}`);
    this.pos++;
    return c === close;
  }

  /** Reads a string literal and returns its decoded value (UTF-16, lone surrogates kept). */
  private string(): string {
    const text = this.text;
    let i = ++this.pos;
    let out = '';
    let runStart = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail('Unterminated string');
      }
      if (c === 0x22) {
        this.pos = i + 1;
        return out + text.slice(runStart, i);
      }
      if (c < 0x20) {
        this.pos = i;
        this.fail('Control character in string');
      }
      if (c === 0x5c) {
        out += text.slice(runStart, i);
        this.pos = i;
        out += this.escape();
        i = this.pos;
        runStart = i;
        continue;
      }
      i++;
    }
  }

  private escape(): string {
    const c = this.text[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        return c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\u escape');
        this.pos += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        this.pos -= 2;
        return this.fail('Invalid escape');
    }
  }

  private number(): string {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.fail('Expected a JSON value');
    this.pos += match[0].length;
    return match[0];
  }

  private literal(word: 'true' | 'false' | 'null'): string {
    if (!this.text.startsWith(word, this.pos)) this.fail('Expected a JSON value');
    this.pos += word.length;
    return word;
  }

  private expect(code: number, what: string): void {
    if (this.text.charCodeAt(this.pos) !== code) this.fail(`Expected ${what}`);
    this.pos++;
  }

  private enter(depth: number): void {
    this.pos++;
    if (depth > MAX_DEPTH) this.fail('JSON nested too deeply');
  }

  private skipWhitespace(): void {
    const text = this.text;
    let c = text.charCodeAt(this.pos);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.pos);
  }

  private fail(message: string): never {
    throw new CanonicalBodyError(message, this.pos);
  }
}

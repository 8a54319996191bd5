import { loadVectors } from '../test/vectors';
import { CanonicalBodyError, canonicalBody, compareCodePoints, encodeJsonString } from './canonical-body';

describe('canonicalBody', () => {
  describe.each(loadVectors().map((v) => [v.name, v] as const))('vector %s', (_name, vector) => {
    it('reproduces the CPython canonical body', () => {
      expect(canonicalBody(vector.raw_body)).toBe(vector.canonical_body);
    });
  });

  it.each([null, undefined, '', Buffer.alloc(0)])('gives an empty body for %p', (raw) => {
    expect(canonicalBody(raw)).toBe('');
  });

  it('keeps number lexemes exactly', () => {
    const raw = '{"f": 254.0, "tiny": 1e-06, "big": 123456789012345678901234567890, "e": -1.5E+10, "z": -0}';
    expect(canonicalBody(raw)).toBe('{"big":123456789012345678901234567890,"e":-1.5E+10,"f":254.0,"tiny":1e-06,"z":-0}');
  });

  it('sorts keys by code point, not by UTF-16 unit', () => {
    // U+1F680 is encoded as D83D DE80, which UTF-16 order puts before U+FF21; Python puts it after.
    const raw = '{"\uFF21": 1, "\u{1F680}": 2, "a": 3, "\u00e9": 4}';
    expect(canonicalBody(raw)).toBe('{"a":3,"\\u00e9":4,"\\uff21":1,"\\ud83d\\ude80":2}');
  });

  it('tells a surrogate pair from a lone high surrogate followed by another character', () => {
    const raw = '{"\\ud83d\\ude80": 1, "\\ud83d\\ue000": 2, "\\ud83d": 3, "\\ud83d\\ud83d\\ude00": 4}';
    // Expected order computed by CPython json.dumps(sort_keys=True).
    expect(canonicalBody(raw)).toBe('{"\\ud83d":3,"\\ud83d\\ue000":2,"\\ud83d\\ud83d\\ude00":4,"\\ud83d\\ude80":1}');
  });

  it('sorts a lone high surrogate below U+E000 and keys that are prefixes first', () => {
    expect(canonicalBody('{"\\ue000": 1, "\\ud800": 2, "ab": 3, "a": 4}')).toBe(
      '{"a":4,"ab":3,"\\ud800":2,"\\ue000":1}',
    );
  });

  it('decodes input escapes and re-escapes like json.dumps(ensure_ascii=True)', () => {
    const raw = '["\\u00E9\\/\\"\\\\", "\\b\\f\\n\\r\\t", "\\u0001\\u001f\\u007f ~", "/ raw é \u{1F600}"]';
    expect(canonicalBody(raw)).toBe(
      '["\\u00e9/\\"\\\\","\\b\\f\\n\\r\\t","\\u0001\\u001f\\u007f ~","/ raw \\u00e9 \\ud83d\\ude00"]',
    );
  });

  it('re-emits lone surrogate escapes as they came', () => {
    expect(canonicalBody('{"k": "\\ud800 and \\udfff"}')).toBe('{"k":"\\ud800 and \\udfff"}');
  });

  it('writes nested arrays and objects without whitespace', () => {
    const raw = ' [ [ ] , { } , [ 1 , [ true , false , null ] ] , { "b" : { "d" : [ ] , "c" : 1 } } ] ';
    expect(canonicalBody(raw)).toBe('[[],{},[1,[true,false,null]],{"b":{"c":1,"d":[]}}]');
  });

  it('keeps the last value of a repeated key', () => {
    expect(canonicalBody('{"a": 1, "b": 2, "a": {"x": 3}}')).toBe('{"a":{"x":3},"b":2}');
  });

  it('accepts a top-level scalar and a UTF-8 Buffer', () => {
    expect(canonicalBody('"x"')).toBe('"x"');
    expect(canonicalBody(Buffer.from('{"s": "d\u00e9j\u00e0"}', 'utf8'))).toBe('{"s":"d\\u00e9j\\u00e0"}');
  });

  it.each([
    ['not JSON', '{bad'],
    ['trailing comma', '[1,]'],
    ['trailing data', '{} {}'],
    ['single quotes', "{'a': 1}"],
    ['leading zero', '[01]'],
    ['bare dot', '[1.]'],
    ['plus sign', '[+1]'],
    ['NaN', '[NaN]'],
    ['Infinity', '[Infinity]'],
    ['bad escape', '["\\x41"]'],
    ['short unicode escape', '["\\u12"]'],
    ['raw control character', '["a\nb"]'],
    ['unterminated string', '["abc'],
    ['unterminated array', '[1, 2'],
    ['missing colon', '{"a" 1}'],
    ['non-string key', '{1: 2}'],
    ['whitespace only', '   '],
    ['too deep', '['.repeat(1001) + ']'.repeat(1001)],
  ])('refuses %s', (_what, raw) => {
    expect(() => canonicalBody(raw)).toThrow(CanonicalBodyError);
  });

  it('refuses a Buffer that is not UTF-8', () => {
    expect(() => canonicalBody(Buffer.from([0x22, 0xff, 0x22]))).toThrow(CanonicalBodyError);
  });

  it('reports where the JSON broke', () => {
    expect(() => canonicalBody('[1, x]')).toThrow('Expected a JSON value at position 4');
  });
});

describe('compareCodePoints', () => {
  it('orders like Python str comparison', () => {
    const keys = ['\u{10000}', '\uffff', '\ud800', 'b', 'a', 'ab', ''];
    expect([...keys].sort(compareCodePoints)).toEqual(['', 'a', 'ab', 'b', '\ud800', '\uffff', '\u{10000}']);
  });
});

describe('encodeJsonString', () => {
  it('leaves printable ASCII alone and escapes DEL', () => {
    expect(encodeJsonString('plain / text')).toBe('"plain / text"');
    expect(encodeJsonString('\u007f')).toBe('"\\u007f"');
  });
});

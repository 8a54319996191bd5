/**
 * The Markdown the pages render (the disclaimer, a competition's onboarding document) parsed into
 * plain data: blocks (headings, lists, code, quotes, paragraphs, rules) holding inline runs (text,
 * bold, emphasis, code, links). The pages turn these into elements whose text is always text: HTML in
 * a document is shown as written and never parsed, and a link keeps its target only for http(s) and mailto.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  /** `href` null: a target the page will not follow (javascript:, data:, relative…); its text stays. */
  | { kind: 'link'; href: string | null; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' }
  | { kind: 'paragraph'; text: string };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** The blocks of a document, in order. */
export function markdownBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  let quote: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ kind: 'list', ...list });
    if (quote.length > 0) blocks.push({ kind: 'quote', text: quote.join(' ') });
    paragraph = [];
    list = null;
    quote = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1];
      const body: string[] = [];
      // An unclosed fence runs to the end of the document, as CommonMark has it.
      for (i += 1; i < lines.length; i += 1) {
        const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[i]);
        if (close && close[1][0] === marker[0] && close[1].length >= marker.length) break;
        body.push(lines[i]);
      }
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1].length, text: (heading[2] ?? '').trim() });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]);
      if (paragraph.length > 0 || quote.length > 0 || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(item[2].trim());
      continue;
    }
    const quoted = QUOTE.exec(line);
    if (quoted && !list) {
      if (paragraph.length > 0) flush();
      quote.push(quoted[1].trim());
      continue;
    }
    if (list) {
      // A continuation line belongs to the item above it.
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else if (quote.length > 0) {
      quote.push(line.trim());
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;

/** The target a link may keep: an absolute http(s) or mailto URL, else null. */
export function safeHref(target: string): string | null {
  let url: URL;
  try {
    url = new URL(target.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : null;
}

/** The inline runs of a block's text. */
export function inlineRuns(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const push = (node: Inline) => {
    if (plain) out.push({ kind: 'text', text: plain });
    plain = '';
    out.push(node);
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\' && i + 1 < text.length && PUNCTUATION.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(text.slice(i))?.[0] ?? '`';
      const close = findRun(text, run, i + run.length);
      if (close >= 0) {
        let code = text.slice(i + run.length, close);
        if (code.length > 1 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
        push({ kind: 'code', text: code });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (text.startsWith('**', i)) {
      const close = text.indexOf('**', i + 2);
      if (close > i + 2) {
        push({ kind: 'strong', children: inlineRuns(text.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }
    if ((char === '*' || char === '_') && i + 1 < text.length && text[i + 1] !== ' ' && text[i + 1] !== char) {
      const close = text.indexOf(char, i + 1);
      if (close > i + 1 && text[close - 1] !== ' ' && (char === '*' || !/\w/.test(text[close + 1] ?? ''))) {
        push({ kind: 'em', children: inlineRuns(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    if (char === '[') {
      const link = /^\[([^\]]*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)/.exec(text.slice(i));
      if (link) {
        push({ kind: 'link', href: safeHref(link[2]), children: inlineRuns(link[1]) });
        i += link[0].length;
        continue;
      }
    }
    if (char === '<') {
      const auto = /^<((?:https?|mailto):[^\s<>]+)>/i.exec(text.slice(i));
      if (auto) {
        push({ kind: 'link', href: safeHref(auto[1]), children: [{ kind: 'text', text: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((char === 'h' || char === 'H') && (i === 0 || /[\s(]/.test(text[i - 1]))) {
      const bare = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/i.exec(text.slice(i));
      if (bare) {
        push({ kind: 'link', href: safeHref(bare[0]), children: [{ kind: 'text', text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    plain += char;
    i += 1;
  }
  if (plain) out.push({ kind: 'text', text: plain });
  return out;
}

/** Where a backtick run exactly as long as `run` starts at or after `from`, or -1. */
function findRun(text: string, run: string, from: number): number {
  for (let at = text.indexOf(run, from); at >= 0; at = text.indexOf(run, at + 1)) {
    const before = text[at - 1];
    const after = text[at + run.length];
    if (before !== '`' && after !== '`') return at;
    while (text[at + 1] === '`') at += 1;
  }
  return -1;
}

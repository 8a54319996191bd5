/** Markdown writing helpers that keep user text from changing the document's structure. */

const LINE_BREAKS = /[ \t]*(?:\r\n|\r|\n)[ \t]*/g;
// Characters that start inline constructs (emphasis, code, links, HTML, entities, headings' closing #, tables).
const INLINE_SYNTAX = /[\\`*_[\]<>&~|#!]/g;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const ATX_HEADING = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
// Lines that cannot be the text of a setext heading: lists, quotes, indented code, HTML, thematic breaks.
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[-+*>]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}<| {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$)/;

function oneLine(value: string): string {
  return value.replace(LINE_BREAKS, ' ');
}

function longestBacktickRun(value: string): number {
  return Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
}

/** Literal inline text: one line, inline syntax escaped. */
export function inlineText(value: string): string {
  return oneLine(value).trim().replace(INLINE_SYNTAX, '\\$&');
}

/** A one-line code span whose fence is longer than any backtick run inside it. */
export function codeSpan(value: string): string {
  const content = oneLine(value);
  const fence = '`'.repeat(longestBacktickRun(content) + 1);
  const padded = /^[` ]|[` ]$/.test(content) ? ` ${content} ` : content;
  return `${fence}${padded}${fence}`;
}

/** A fenced code block whose fence no line of `value` can close. */
export function codeBlock(value: string, info = ''): string {
  const content = value.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
  return `${fence}${info}\n${content}\n${fence}`;
}

/**
 * Embeds a Markdown text below a section: every heading (ATX or setext) moves down `levels`
 * levels (at most to 6), and a code fence left open is closed, so the text cannot start or
 * swallow a section of the document around it. Code blocks are left as written.
 */
export function nestMarkdown(markdown: string, levels: number): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;
  // Index in `out` of the first line of the paragraph being read, if any.
  let paragraphStart: number | null = null;
  const heading = (level: number, text: string): string => `${'#'.repeat(Math.min(6, level + levels))} ${text}`;

  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence) {
      out.push(line);
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    const atx = ATX_HEADING.exec(line);
    if (open) {
      fence = { char: open[1][0], length: open[1].length };
      out.push(line);
      paragraphStart = null;
    } else if (atx) {
      out.push(atx[1] + '#'.repeat(Math.min(6, atx[2].length + levels)) + line.slice(atx[0].length));
      paragraphStart = null;
    } else if (paragraphStart !== null && SETEXT_UNDERLINE.test(line)) {
      const text = out.splice(paragraphStart).map((part) => part.trim()).join(' ');
      out.push(heading(line.trim().startsWith('=') ? 1 : 2, text));
      paragraphStart = null;
    } else if (line.trim() === '' || NOT_PARAGRAPH.test(line)) {
      out.push(line);
      paragraphStart = null;
    } else {
      paragraphStart ??= out.length;
      out.push(line);
    }
  }
  if (fence) out.push(fence.char.repeat(fence.length));
  return out.join('\n');
}

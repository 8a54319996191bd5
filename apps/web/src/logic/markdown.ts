/** The little Markdown the disclaimer uses (headings, bullet lists, paragraphs, **bold**), as blocks to render without HTML injection. */
export type Block = { kind: 'heading'; text: string } | { kind: 'list'; items: string[] } | { kind: 'paragraph'; text: string };

export function markdownBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of markdown.replace(/\r\n/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[0]);
    if (heading && lines.length === 1) {
      blocks.push({ kind: 'heading', text: heading[1].trim() });
    } else if (/^[-*]\s+/.test(lines[0])) {
      const items: string[] = [];
      for (const line of lines) {
        if (/^[-*]\s+/.test(line)) items.push(line.replace(/^[-*]\s+/, '').trim());
        else items[items.length - 1] += ` ${line.trim()}`;
      }
      blocks.push({ kind: 'list', items });
    } else {
      blocks.push({ kind: 'paragraph', text: lines.map((line) => line.trim()).join(' ') });
    }
  }
  return blocks;
}

/** `a **b** c` → text and bold runs. */
export function inlineRuns(text: string): { bold: boolean; text: string }[] {
  return text
    .split(/\*\*(.+?)\*\*/)
    .map((part, i) => ({ bold: i % 2 === 1, text: part }))
    .filter((run) => run.text !== '');
}

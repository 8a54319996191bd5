import { inlineRuns, markdownBlocks, safeHref } from './markdown';

describe('markdownBlocks', () => {
  it('reads headings, bullet lists with continuation lines and paragraphs', () => {
    const text = '# Title\n\nFirst paragraph\ngoes on.\n\n- **One.** item\n  continued\n- Two\n\nLast.';
    expect(markdownBlocks(text)).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'paragraph', text: 'First paragraph goes on.' },
      { kind: 'list', ordered: false, items: ['**One.** item continued', 'Two'] },
      { kind: 'paragraph', text: 'Last.' },
    ]);
  });

  it('keeps fenced code as written, up to a fence at least as long, and reads ordered lists, quotes and rules', () => {
    const text = '## Run\n````sh\n```\n# not a heading\n````\n1. first\n2) second\n\n> quoted\n> on\n\n---\n### Done ##';
    expect(markdownBlocks(text)).toEqual([
      { kind: 'heading', level: 2, text: 'Run' },
      { kind: 'code', text: '```\n# not a heading' },
      { kind: 'list', ordered: true, items: ['first', 'second'] },
      { kind: 'quote', text: 'quoted on' },
      { kind: 'rule' },
      { kind: 'heading', level: 3, text: 'Done' },
    ]);
  });
});

describe('inlineRuns', () => {
  it('splits bold, emphasis and code spans from plain text, honouring backslash escapes', () => {
    expect(inlineRuns('**No reward.** Claiming <b>x</b> \\*not em\\* `a `` b` *em*')).toEqual([
      { kind: 'strong', children: [{ kind: 'text', text: 'No reward.' }] },
      { kind: 'text', text: ' Claiming <b>x</b> *not em* ' },
      { kind: 'code', text: 'a `` b' },
      { kind: 'text', text: ' ' },
      { kind: 'em', children: [{ kind: 'text', text: 'em' }] },
    ]);
    expect(inlineRuns('``x ` y``')).toEqual([{ kind: 'code', text: 'x ` y' }]);
  });

  it('keeps a link target only for http(s) and mailto, and links bare URLs', () => {
    expect(inlineRuns('[docs](https://example.org/a) [bad](javascript:alert(1)) [x](data:text/html,hi)')).toEqual([
      { kind: 'link', href: 'https://example.org/a', children: [{ kind: 'text', text: 'docs' }] },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: null, children: [{ kind: 'text', text: 'bad' }] },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: null, children: [{ kind: 'text', text: 'x' }] },
    ]);
    expect(inlineRuns('see http://127.0.0.1:8000/api/v1/tasks/t1.')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'http://127.0.0.1:8000/api/v1/tasks/t1', children: [{ kind: 'text', text: 'http://127.0.0.1:8000/api/v1/tasks/t1' }] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('refuses script-like targets however they are spelled', () => {
    for (const target of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'vbscript:x', '/relative', '#top', '//evil.example']) {
      expect(safeHref(target)).toBeNull();
    }
    expect(safeHref('mailto:ops@example.org')).toBe('mailto:ops@example.org');
  });
});

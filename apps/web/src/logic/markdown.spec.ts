import { inlineRuns, markdownBlocks } from './markdown';

describe('markdownBlocks', () => {
  it('reads headings, bullet lists with continuation lines and paragraphs', () => {
    const text = '# Title\n\nFirst paragraph\ngoes on.\n\n- **One.** item\n  continued\n- Two\n\nLast.';
    expect(markdownBlocks(text)).toEqual([
      { kind: 'heading', text: 'Title' },
      { kind: 'paragraph', text: 'First paragraph goes on.' },
      { kind: 'list', items: ['**One.** item continued', 'Two'] },
      { kind: 'paragraph', text: 'Last.' },
    ]);
  });

  it('splits bold runs from plain text', () => {
    expect(inlineRuns('**No reward.** Claiming <b>x</b>')).toEqual([
      { bold: true, text: 'No reward.' },
      { bold: false, text: ' Claiming <b>x</b>' },
    ]);
  });
});

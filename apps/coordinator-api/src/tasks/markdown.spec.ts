import { codeBlock, codeSpan, inlineText, nestMarkdown } from './markdown';

describe('inlineText', () => {
  it('keeps text on one line and escapes inline syntax', () => {
    expect(inlineText('Tiny *LM*\n# Heading\r\n[link](x) <b>&amp; a|b ~~s~~ `c` \\ !')).toBe(
      'Tiny \\*LM\\* \\# Heading \\[link\\](x) \\<b\\>\\&amp; a\\|b \\~\\~s\\~\\~ \\`c\\` \\\\ \\!',
    );
  });

  it('leaves plain words alone', () => {
    expect(inlineText('  Tiny LM, v2.0 (held-out)  ')).toBe('Tiny LM, v2.0 (held-out)');
  });
});

describe('codeSpan', () => {
  it('wraps plain values in single backticks', () => {
    expect(codeSpan('pack/train.py')).toBe('`pack/train.py`');
  });

  it('uses a fence longer than any backtick run and pads values touching a backtick', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('``x')).toBe('``` ``x ```');
  });

  it('turns line breaks into spaces', () => {
    expect(codeSpan('a\n## b')).toBe('`a ## b`');
  });
});

describe('codeBlock', () => {
  it('fences with three backticks and an info string', () => {
    expect(codeBlock('python bench.py\n', 'sh')).toBe('```sh\npython bench.py\n```');
  });

  it('uses a fence no line of the content can close', () => {
    expect(codeBlock('echo ```\n````\n## not a heading')).toBe('`````\necho ```\n````\n## not a heading\n`````');
  });
});

describe('nestMarkdown', () => {
  it('moves ATX headings down, at most to level 6', () => {
    expect(nestMarkdown('# A\n## B\n#### D\n###### F\n#NotAHeading', 2)).toBe('### A\n#### B\n###### D\n###### F\n#NotAHeading');
  });

  it('turns setext headings into nested ATX headings, joining their lines', () => {
    expect(nestMarkdown('Intro line\ncontinues\n===\n\nSub\n---\ntext', 2)).toBe('### Intro line continues\n\n#### Sub\ntext');
  });

  it('leaves thematic breaks, list items and code blocks alone', () => {
    const text = '---\n\n- item\n---\n```sh\n# comment\nx\n===\n```\n~~~\n## inside tilde fence\n~~~\n    # indented code';
    expect(nestMarkdown(text, 2)).toBe(text);
  });

  it('only closes a fence with the same character and at least its length', () => {
    expect(nestMarkdown('````\n```\n# in code\n````\n# out', 2)).toBe('````\n```\n# in code\n````\n### out');
  });

  it('closes a fence the text leaves open', () => {
    expect(nestMarkdown('```py\nprint(1)', 2)).toBe('```py\nprint(1)\n```');
  });

  it('normalises CRLF line endings', () => {
    expect(nestMarkdown('# A\r\nb', 1)).toBe('## A\nb');
  });
});

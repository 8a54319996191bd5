/** A patch file from its lines, newline-terminated as `git diff` writes it. */
export const patch = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** `git diff --binary` adding a 5-byte file: the forward literal and the empty reverse one. */
export const binaryAdded = (path: string): string[] => [
  `diff --git a/${path} b/${path}`,
  'new file mode 100644',
  'index 0000000000000000000000000000000000000000..6ebbd4f1c8eb8313a39119770223e261d41a1adc',
  'GIT binary patch',
  'literal 5',
  'Mcmb<msAQ-D00cq-YybcN',
  '',
  'literal 0',
  'HcmV?d00001',
  '',
];

/** A patch text from its lines, newline-terminated as git writes it. */
export const patch = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** The lines git writes for a new five-byte binary file at `path` (a GIT binary patch with its reverse). */
export function newBinaryFile(path: string): string[] {
  return [
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
}

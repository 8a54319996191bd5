import { readQuotedName } from './quoted-name';

export type PatchFileStatus = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'mode';

/** One file of a patch. Paths are repository-relative as written (prefix `a/`/`b/` removed, quotes decoded). */
export interface PatchFile {
  /** null when the file is created. */
  oldPath: string | null;
  /** null when the file is deleted. */
  newPath: string | null;
  status: PatchFileStatus;
  /** `GIT binary patch` or `Binary files … differ`. */
  binary: boolean;
  hunks: number;
  additions: number;
  deletions: number;
}

/** The text is not a unified git diff; `line` is 1-based. */
export class PatchParseError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'PatchParseError';
  }
}

type ExtendedHeader = 'oldMode' | 'newMode' | 'deletedFileMode' | 'newFileMode' | 'copyFrom' | 'copyTo' | 'renameFrom' | 'renameTo';

// Every extended header line git apply knows; the ones recorded are those that name a path or change a mode.
const EXTENDED_HEADERS: [prefix: string, header: ExtendedHeader | null][] = [
  ['old mode ', 'oldMode'],
  ['new mode ', 'newMode'],
  ['deleted file mode ', 'deletedFileMode'],
  ['new file mode ', 'newFileMode'],
  ['copy from ', 'copyFrom'],
  ['copy to ', 'copyTo'],
  ['rename from ', 'renameFrom'],
  ['rename to ', 'renameTo'],
  ['rename old ', 'renameFrom'],
  ['rename new ', 'renameTo'],
  ['similarity index ', null],
  ['dissimilarity index ', null],
  ['index ', null],
];

const MODE = /^[0-7]{1,6}$/;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const BINARY_HUNK_HEADER = /^(?:literal|delta) \d+$/;
const BASE85_LINE = /^[A-Za-z][0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]+$/;

interface HunkStats {
  hunks: number;
  additions: number;
  deletions: number;
}

/** A `---`/`+++` side: a path, null for /dev/null. */
type SideName = string | null;

/**
 * Parses a unified diff as `git diff --binary` writes it (also `-M`/`-C`, `--cached`, plain
 * `---`/`+++` sections) into its files, in one pass over the lines. Stricter than `git apply`,
 * which skips unrecognised lines: here every line must belong to a file header, a hunk or a
 * binary hunk, and every name a file section gives must agree, so no line can touch a path
 * that the result does not show. Throws `PatchParseError`.
 */
export function parsePatch(text: string): PatchFile[] {
  if (text === '') return [];
  const lines = text.split('\n');
  // git apply refuses a hunk whose last line has no newline; a stripped patch fails here instead.
  if (lines.pop() !== '') throw new PatchParseError(lines.length + 1, 'the patch does not end with a newline');
  return new PatchParser(lines).parse();
}

class PatchParser {
  private pos = 0;

  constructor(private readonly lines: string[]) {}

  parse(): PatchFile[] {
    const files: PatchFile[] = [];
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos];
      if (line.startsWith('diff --git ')) files.push(this.gitSection());
      else if (line.startsWith('--- ')) files.push(this.plainSection());
      // Blank lines after the last hunk (an extra newline from an editor or a client) change nothing.
      else if (files.length > 0 && this.lines.slice(this.pos).every((rest) => rest === '')) break;
      else this.fail(files.length === 0 ? 'expected a "diff --git" or "---" line: this is not a unified diff' : 'unexpected line after a file diff');
    }
    if (files.length === 0) this.fail('expected a "diff --git" or "---" line: this is not a unified diff', 0);
    return files;
  }

  private fail(reason: string, line = this.pos): never {
    throw new PatchParseError(line + 1, reason);
  }

  private peek(): string | undefined {
    return this.lines[this.pos];
  }

  /** A `diff --git` section: extended headers, then hunks, a binary patch, or nothing (metadata only). */
  private gitSection(): PatchFile {
    const start = this.pos;
    const header = this.gitHeaderNames(this.lines[this.pos].slice('diff --git '.length));
    this.pos++;
    const ext = this.extendedHeaders();
    let oldSide: SideName | undefined;
    let newSide: SideName | undefined;
    let stats: HunkStats = { hunks: 0, additions: 0, deletions: 0 };
    let binary = false;
    const next = this.peek();
    if (next?.startsWith('--- ')) {
      [oldSide, newSide] = this.sideNames();
      stats = this.hunks();
    } else if (next === 'GIT binary patch') {
      this.binaryPatch();
      binary = true;
    } else if (next?.startsWith('Binary files ') && next.endsWith(' differ')) {
      this.pos++;
      binary = true;
    } else if (next?.startsWith('@@')) {
      this.fail('a hunk without "---" and "+++" lines');
    }

    const isNew = ext.has('newFileMode') || oldSide === null;
    const isDeleted = ext.has('deletedFileMode') || newSide === null;
    const isRename = ext.has('renameFrom') || ext.has('renameTo');
    const isCopy = ext.has('copyFrom') || ext.has('copyTo');
    if ([isNew, isDeleted, isRename, isCopy].filter(Boolean).length > 1) this.fail('contradictory file headers', start);
    if (isRename && !(ext.has('renameFrom') && ext.has('renameTo'))) this.fail('"rename from" and "rename to" must come together', start);
    if (isCopy && !(ext.has('copyFrom') && ext.has('copyTo'))) this.fail('"copy from" and "copy to" must come together', start);
    if (ext.has('oldMode') !== ext.has('newMode')) this.fail('"old mode" and "new mode" must come together', start);
    if (ext.has('newFileMode') && typeof oldSide === 'string') this.fail('a new file whose "---" line is not /dev/null', start);
    if (ext.has('deletedFileMode') && typeof newSide === 'string') this.fail('a deleted file whose "+++" line is not /dev/null', start);

    const oldName = this.agreedName([ext.get('renameFrom') ?? ext.get('copyFrom'), oldSide, header?.oldName], start, 'old');
    const newName = this.agreedName([ext.get('renameTo') ?? ext.get('copyTo'), newSide, header?.newName], start, 'new');
    if (oldName === undefined && newName === undefined) {
      this.fail('cannot tell which file this section changes (paths need git\'s "a/" and "b/" prefixes)', start);
    }
    if (!isRename && !isCopy && oldName !== undefined && newName !== undefined && oldName !== newName) {
      this.fail('old and new file names differ without a "rename" or "copy" header', start);
    }
    const modeChanged = ext.has('oldMode') && ext.get('oldMode') !== ext.get('newMode');
    if (stats.hunks === 0 && !binary && !isNew && !isDeleted && !isRename && !isCopy && !modeChanged) {
      this.fail('a file header without any change', start);
    }
    return {
      oldPath: isNew ? null : (oldName ?? newName ?? null),
      newPath: isDeleted ? null : (newName ?? oldName ?? null),
      status: isNew ? 'added' : isDeleted ? 'deleted' : isRename ? 'renamed' : isCopy ? 'copied' : stats.hunks === 0 && !binary ? 'mode' : 'modified',
      binary,
      ...stats,
    };
  }

  /** A plain unified diff section (`diff -u`): `--- a/x`, `+++ b/x`, hunks. */
  private plainSection(): PatchFile {
    const start = this.pos;
    const [oldSide, newSide] = this.sideNames();
    if (oldSide === null && newSide === null) this.fail('both sides are /dev/null', start);
    if (oldSide !== null && newSide !== null && oldSide !== newSide) {
      this.fail('"---" and "+++" name different files (a rename needs a "diff --git" header)', start);
    }
    const stats = this.hunks();
    return {
      oldPath: oldSide,
      newPath: newSide,
      status: oldSide === null ? 'added' : newSide === null ? 'deleted' : 'modified',
      binary: false,
      ...stats,
    };
  }

  /** All names a section gives for one side must be the same file. */
  private agreedName(names: (SideName | undefined)[], start: number, side: 'old' | 'new'): string | undefined {
    const given = names.filter((name): name is string => typeof name === 'string');
    if (given.some((name) => name !== given[0])) this.fail(`inconsistent ${side} file names in one file section`, start);
    return given[0];
  }

  private extendedHeaders(): Map<ExtendedHeader, string> {
    const found = new Map<ExtendedHeader, string>();
    const seen = new Set<string>();
    for (let line = this.peek(); line !== undefined; line = this.peek()) {
      const known = EXTENDED_HEADERS.find(([prefix]) => line.startsWith(prefix));
      if (!known) break;
      const [prefix, header] = known;
      if (seen.has(prefix)) this.fail(`repeated "${prefix.trim()}" header`);
      seen.add(prefix);
      const value = line.slice(prefix.length);
      if (header === 'oldMode' || header === 'newMode' || header === 'deletedFileMode' || header === 'newFileMode') {
        if (!MODE.test(value)) this.fail(`invalid file mode "${value}"`);
        found.set(header, value);
      } else if (header !== null) {
        found.set(header, this.wholeName(value));
      }
      this.pos++;
    }
    return found;
  }

  /**
   * The two names of `diff --git a/X b/Y`, or null when the line alone does not tell them apart
   * (unquoted names with spaces that differ); the other header lines must then name the files.
   */
  private gitHeaderNames(names: string): { oldName: string; newName: string } | null {
    let oldName: string;
    let newName: string;
    if (names.startsWith('"')) {
      const first = this.quoted(names, 0);
      if (names[first.end] !== ' ') this.fail('malformed "diff --git" line');
      oldName = first.name;
      newName = this.wholeName(names.slice(first.end + 1));
    } else if (names.endsWith('"')) {
      // An unquoted name never contains `"`, and a quoted one never contains ` "`: the last ` "` splits.
      const split = names.lastIndexOf(' "');
      if (split < 0) this.fail('malformed "diff --git" line');
      oldName = names.slice(0, split);
      newName = this.wholeName(names.slice(split + 1));
    } else {
      const half = (names.length - 1) / 2;
      const sameName = Number.isInteger(half) && names[half] === ' ' && names.slice(2, half) === names.slice(half + 3);
      const split = sameName ? half : names.indexOf(' b/');
      if (split < 0 || (!sameName && names.indexOf(' b/', split + 1) >= 0)) return null;
      oldName = names.slice(0, split);
      newName = names.slice(split + 1);
    }
    return { oldName: this.stripPrefix(oldName, 'a/'), newName: this.stripPrefix(newName, 'b/') };
  }

  /** `--- a/x` and `+++ b/x` (or /dev/null), which must be followed by a hunk. */
  private sideNames(): [SideName, SideName] {
    const oldSide = this.sideName('--- ', 'a/');
    if (!this.peek()?.startsWith('+++ ')) this.fail('a "---" line must be followed by a "+++" line');
    const newSide = this.sideName('+++ ', 'b/');
    if (!this.peek()?.startsWith('@@ -')) this.fail('expected a "@@" hunk after the "+++" line');
    return [oldSide, newSide];
  }

  private sideName(marker: '--- ' | '+++ ', prefix: 'a/' | 'b/'): SideName {
    const value = this.lines[this.pos].slice(marker.length);
    let name: string;
    if (value.startsWith('"')) {
      const quoted = this.quoted(value, 0);
      if (quoted.end < value.length && value[quoted.end] !== '\t') this.fail('text after a quoted file name');
      name = quoted.name;
    } else {
      const tab = value.indexOf('\t');
      name = tab < 0 ? value : value.slice(0, tab);
      // git and GNU diff end a name holding a space with a tab; without one, a timestamp could follow.
      if (tab < 0 && name.includes(' ')) this.fail('a file name with a space must end with a tab');
    }
    const side = name === '/dev/null' ? null : this.stripPrefix(name, prefix);
    this.pos++;
    return side;
  }

  /** A name that fills the rest of the line, quoted or not. */
  private wholeName(value: string): string {
    if (!value.startsWith('"')) return value;
    const quoted = this.quoted(value, 0);
    if (quoted.end !== value.length) this.fail('text after a quoted file name');
    return quoted.name;
  }

  private quoted(text: string, start: number): { name: string; end: number } {
    const quoted = readQuotedName(text, start);
    if (!quoted.ok) this.fail(quoted.reason);
    return quoted;
  }

  // git apply strips one leading component (-p1); requiring git's own prefixes keeps that from moving a path.
  private stripPrefix(name: string, prefix: 'a/' | 'b/'): string {
    if (!name.startsWith(prefix)) this.fail(`file name "${name}" lacks git's "${prefix}" prefix (a diff made with --no-prefix?)`);
    return name.slice(prefix.length);
  }

  /** One or more `@@` hunks; their line counts must match the lines that follow. */
  private hunks(): HunkStats {
    const stats: HunkStats = { hunks: 0, additions: 0, deletions: 0 };
    for (let line = this.peek(); line?.startsWith('@@ -'); line = this.peek()) {
      const header = HUNK_HEADER.exec(line);
      if (!header) this.fail('malformed hunk header');
      let oldLines = header[2] === undefined ? 1 : Number(header[2]);
      let newLines = header[4] === undefined ? 1 : Number(header[4]);
      const start = this.pos;
      let changes = 0;
      this.pos++;
      while (oldLines > 0 || newLines > 0) {
        const body = this.peek();
        if (body === undefined) this.fail('the patch ends inside a hunk', start);
        switch (body[0]) {
          // git apply reads an empty line as an empty context line whose space was stripped.
          case undefined:
          case ' ':
            oldLines--;
            newLines--;
            break;
          case '-':
            oldLines--;
            stats.deletions++;
            changes++;
            break;
          case '+':
            newLines--;
            stats.additions++;
            changes++;
            break;
          case '\\':
            this.noNewlineMarker(start);
            continue;
          default:
            this.fail('a hunk has fewer lines than its header says');
        }
        if (oldLines < 0 || newLines < 0) this.fail('a hunk has more lines than its header says', start);
        this.pos++;
      }
      if (this.peek()?.startsWith('\\')) this.noNewlineMarker(start);
      if (changes === 0) this.fail('a hunk without added or removed lines', start);
      stats.hunks++;
    }
    return stats;
  }

  /** `\ No newline at end of file` (its wording follows the author's locale), right after a hunk line. */
  private noNewlineMarker(hunkStart: number): void {
    const line = this.lines[this.pos];
    if (!line.startsWith('\\ ') || line.length < 11 || this.pos === hunkStart + 1 || this.lines[this.pos - 1].startsWith('\\')) {
      this.fail('misplaced "\\ No newline at end of file" line');
    }
    this.pos++;
  }

  /** `GIT binary patch`: a forward `literal`/`delta` hunk of base85 lines, an optional reverse one. */
  private binaryPatch(): void {
    this.pos++;
    this.binaryHunk();
    if (BINARY_HUNK_HEADER.test(this.peek() ?? '')) this.binaryHunk();
  }

  private binaryHunk(): void {
    if (!BINARY_HUNK_HEADER.test(this.peek() ?? '')) this.fail('expected "literal" or "delta" in a binary patch');
    this.pos++;
    for (let line = this.peek(); line !== undefined && line !== ''; line = this.peek()) {
      if (!BASE85_LINE.test(line)) this.fail('corrupt binary patch line');
      this.pos++;
    }
    if (this.peek() === '') this.pos++;
  }
}

// Characters with a meaning in a `u`-flag regular expression; everything else is literal there.
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/;

/** Regex source for one path segment of a pattern: `*` and `?` stay inside the segment, `**` crosses segments. */
function segmentSource(segment: string): string {
  let source = '';
  let i = 0;
  while (i < segment.length) {
    const char = segment[i];
    if (char === '*') {
      let run = 1;
      while (segment[i + run] === '*') run++;
      source += run > 1 ? '.*' : '[^/]*';
      i += run;
    } else if (char === '?') {
      source += '[^/]';
      i++;
    } else {
      source += REGEX_SYNTAX.test(char) ? `\\${char}` : char;
      i++;
    }
  }
  return source;
}

/**
 * An `allowed_patch_paths` pattern as an anchored RegExp over repository-relative paths.
 * `*` matches within one segment, `?` one character of a segment, and a `**` segment zero or more
 * whole segments (`**\/x`, `a/**\/b`); a trailing `/**` (or a trailing `/`) matches everything
 * below that directory, and `**` inside a segment matches across segments. Every other character
 * is literal.
 */
export function compileGlob(pattern: string): RegExp {
  const segments = (pattern.endsWith('/') ? `${pattern}**` : pattern)
    .split('/')
    // `**/**` means what `**` means; merging them keeps the regex free of stacked repetitions.
    .filter((segment, i, all) => !(segment === '**' && all[i - 1] === '**'));
  let source = '';
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') {
      if (segments.length === 1) source += '[^/]+(?:/[^/]+)*';
      else if (last) source += '(?:/[^/]+)+';
      else source += `${i > 0 ? '/' : ''}(?:[^/]+/)*`;
      return;
    }
    if (i > 0 && segments[i - 1] !== '**') source += '/';
    source += segmentSource(segment);
  });
  return new RegExp(`^${source}$`, 'u');
}

/** Whether a repository-relative path matches an `allowed_patch_paths` pattern. */
export function matchesGlob(path: string, pattern: string): boolean {
  return compileGlob(pattern).test(path);
}

/** Private values shorter than this are not secrets (`1`, `42`, `true`): left alone, so exit codes and timestamps stay readable (§6). */
export const MIN_SECRET_CHARS = 6;
/** Values this short are replaced only as whole tokens, so a short token does not shred every number of the log. */
const WHOLE_TOKEN_CHARS = 4;
/** Keys whose values are credentials, digests or locations: redacted whatever their length. */
const ALWAYS_SECRET_KEY = /(_URL|_TOKEN|_SHA256|_SECRET|_PASSWORD|_KEY|_SOURCES_JSON)$|^(HF_TOKEN|HUGGINGFACE_TOKEN)$/;
const URL_VALUE = /^[a-z][a-z0-9+.-]*:\/\//i;
const DIGEST_VALUE = /^[0-9a-f]{32,}$/i;

interface Secret {
  text: string;
  key: string;
}

/**
 * Replaces validator-private values with `[redacted:KEY]` (the admin replay log) or `[redacted]` (public notes,
 * which never name a private variable): each `validator_benchmark_env` value of MIN_SECRET_CHARS or more, and
 * every URL (with its decoded form, host and path), token and digest whatever its length, plus the values
 * added with `alsoRedact` (the rotation number). Longer values go first, so a value containing another one is
 * replaced whole.
 */
export class Redactor {
  private readonly secrets: Secret[];

  constructor(privateEnv: Record<string, string>, alsoRedact: Record<string, string> = {}) {
    const seen = new Map<string, string>();
    const add = (key: string, value: string, always: boolean) => {
      for (const text of variantsOf(value)) {
        if (text.length > 0 && (always || text.length >= MIN_SECRET_CHARS) && !seen.has(text)) seen.set(text, key);
      }
    };
    for (const [key, value] of Object.entries(privateEnv)) add(key, value, isAlwaysSecret(key, value));
    for (const [key, value] of Object.entries(alsoRedact)) add(key, value, true);
    this.secrets = [...seen].map(([text, key]) => ({ text, key })).sort((a, b) => b.text.length - a.text.length);
  }

  /** The admin form: each value replaced by `[redacted:KEY]`. */
  redact(text: string): string {
    return this.replace(text, (key) => `[redacted:${key}]`);
  }

  /** The public form: each value replaced by `[redacted]`, naming no private variable. */
  redactPublic(text: string): string {
    return this.replace(text, () => '[redacted]');
  }

  private replace(text: string, marker: (key: string) => string): string {
    let out = text;
    for (const secret of this.secrets) {
      out =
        secret.text.length >= WHOLE_TOKEN_CHARS
          ? out.split(secret.text).join(marker(secret.key))
          : out.replace(new RegExp(`(?<![A-Za-z0-9._-])${escapeRegExp(secret.text)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'g'), marker(secret.key));
    }
    return out;
  }
}

function isAlwaysSecret(key: string, value: string): boolean {
  const trimmed = value.trim();
  return ALWAYS_SECRET_KEY.test(key) || URL_VALUE.test(trimmed) || DIGEST_VALUE.test(trimmed);
}

/** The value itself, and for a URL the pieces an error message may quote on their own. */
function variantsOf(value: string): string[] {
  const variants = [value, value.trim(), safeDecode(value)];
  if (URL_VALUE.test(value.trim())) {
    try {
      const url = new URL(value.trim());
      variants.push(url.href, url.host, url.hostname);
      if (url.pathname.length >= WHOLE_TOKEN_CHARS) variants.push(url.pathname, safeDecode(url.pathname));
      if (url.username) variants.push(url.username, safeDecode(url.username));
      if (url.password) variants.push(url.password, safeDecode(url.password));
    } catch {
      // Not a parseable URL after all.
    }
  }
  return variants;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: the text as it is.
    return text;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Values this short are replaced only as whole tokens, so a private "42" does not shred every number of the log. */
const SHORT_VALUE = 4;

interface Secret {
  text: string;
  key: string;
}

/**
 * Replaces every validator-private value (each `validator_benchmark_env` value, and for URLs their decoded
 * form, host and path) with `[redacted:KEY]`. Longer values go first, so a value containing another one is
 * replaced whole.
 */
export class Redactor {
  private readonly secrets: Secret[];

  constructor(privateEnv: Record<string, string>) {
    const seen = new Map<string, string>();
    for (const [key, value] of Object.entries(privateEnv)) {
      for (const text of variantsOf(value)) {
        if (text.length > 0 && !seen.has(text)) seen.set(text, key);
      }
    }
    this.secrets = [...seen].map(([text, key]) => ({ text, key })).sort((a, b) => b.text.length - a.text.length);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      const marker = `[redacted:${secret.key}]`;
      out =
        secret.text.length >= SHORT_VALUE
          ? out.split(secret.text).join(marker)
          : out.replace(new RegExp(`(?<![A-Za-z0-9._-])${escapeRegExp(secret.text)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'g'), marker);
    }
    return out;
  }
}

/** The value itself, and for a URL the pieces an error message may quote on their own. */
function variantsOf(value: string): string[] {
  const variants = [value, value.trim(), safeDecode(value)];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) {
    try {
      const url = new URL(value.trim());
      variants.push(url.href, url.host, url.hostname);
      if (url.pathname.length >= SHORT_VALUE) variants.push(url.pathname, safeDecode(url.pathname));
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

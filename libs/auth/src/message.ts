import { createHash } from 'node:crypto';

/** First line of every signed coordinator message. */
export const BT_AUTH_SCHEME = 'BT-AUTH-V1';

export interface MessageParts {
  method: string;
  /** Request path starting with `/`, without the query. */
  path: string;
  /** Raw query string as sent, without `?`; `''` when there is none. */
  query: string;
  /** Exactly the `X-Timestamp` header. */
  timestamp: string;
  /** Output of `canonicalBody`. */
  canonicalBody: string;
}

/** Lowercase hex SHA-256 of the canonical body's UTF-8 bytes. */
export function bodySha256(canonical: string): string {
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The six-line BT-AUTH-V1 message (DECISIONS.md §2). */
export function buildMessage(parts: MessageParts): string {
  return [
    BT_AUTH_SCHEME,
    parts.method.toUpperCase(),
    parts.path,
    parts.query,
    parts.timestamp,
    bodySha256(parts.canonicalBody),
  ].join('\n');
}

/** Splits a raw request URL as sent (`/a/b?x=1`) into path and raw query, without decoding either. */
export function splitUrl(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
}

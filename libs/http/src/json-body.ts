import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ApiValidationError, ErrorCode } from '@rcs/contracts';
import { validationItem } from './request-validation/validation-item';

/** The JSON request body exactly as sent; signature checks hash its canonical form (DECISIONS.md §2). */
export type RequestWithRawBody = FastifyRequest & { rawBody?: string };

/**
 * How deeply arrays and objects may nest in a request body. No request model comes near it; it keeps
 * every recursive walk over a body (validation, canonical form, storage) far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether arrays and objects in the JSON text nest deeper than `max`, by one pass over the characters
 * (no recursion, no parse), skipping brackets inside strings.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON parser with one that keeps the raw text: signed routes need the exact
 * number lexemes, which a parse-and-print round trip would lose.
 */
export function registerJsonBodyParser(instance: FastifyInstance, bodyLimit: number): void {
  // JSON is the only body type the services take; anything else is refused (415 unsupported_media_type).
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    (request as RequestWithRawBody).rawBody = text;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new ApiValidationError([
          validationItem('json_too_deep', ['body'], `JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`, undefined, {
            max_depth: MAX_JSON_DEPTH,
          }),
        ]),
        undefined,
      );
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(ErrorCode.MalformedBody, 'Body is not valid JSON.'), undefined);
    }
  });
}

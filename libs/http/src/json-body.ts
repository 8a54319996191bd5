import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, ErrorCode } from '@rcs/contracts';

/** The JSON request body exactly as sent; signature checks hash its canonical form (DECISIONS.md §2). */
export type RequestWithRawBody = FastifyRequest & { rawBody?: string };

/**
 * Replaces Fastify's JSON parser with one that keeps the raw text: signed routes need the exact
 * number lexemes, which a parse-and-print round trip would lose.
 */
export function registerJsonBodyParser(instance: FastifyInstance, bodyLimit: number): void {
  // JSON is the only body type the services take; anything else is refused as malformed_body.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    (request as RequestWithRawBody).rawBody = text;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, ErrorCode.MalformedBody, 'Body is not valid JSON.'), undefined);
    }
  });
}

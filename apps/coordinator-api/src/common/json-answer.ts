import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON answer serialised once and shared by every request of a coalesced read, with its entity tag. */
export interface JsonAnswer {
  body: string;
  etag: string;
}

export function jsonAnswer(value: unknown): JsonAnswer {
  return textAnswer(JSON.stringify(value));
}

export function textAnswer(body: string): JsonAnswer {
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/**
 * Sends the answer as `application/json` with its `ETag`; a request whose `If-None-Match` names it
 * gets 304 without a body. Returns what the handler returns (Nest sends a string as is).
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, answer: JsonAnswer): string {
  void reply.type('application/json; charset=utf-8').header('etag', answer.etag);
  if (matches(request.headers['if-none-match'], answer.etag)) {
    void reply.code(304);
    return '';
  }
  return answer.body;
}

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

import type { AuthPrincipal } from '../principal';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request body exactly as received, set by the JSON content-type parser of `@rcs/http`;
     * signed routes hash its canonical form, so it must be the text the client signed.
     */
    rawBody?: string;
    /** Set by the auth guards; read it with `@CurrentAuth()`. */
    authPrincipal?: AuthPrincipal;
  }
}

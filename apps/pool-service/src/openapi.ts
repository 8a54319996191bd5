import { addPoolAuthSecuritySchemes } from '@rcs/auth';
import type { OpenApiOptions } from '@rcs/http';

/** The pool's OpenAPI document: what `main.ts` serves, and what the tests boot. */
export const POOL_OPENAPI: OpenApiOptions = {
  title: 'Payout (Pool) Service',
  description: 'Pool miners and recipient coldkeys, pool-mining batches and leases, consensus, results and the state of the art.',
  version: '0.1.0',
  configure: addPoolAuthSecuritySchemes,
};

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { VectorCase } from '../src/cli/vector-case';

/** A case with the canonical body, its hash and the message every implementation must compute from it. */
export interface AuthVector extends VectorCase {
  canonical_body: string;
  body_sha256: string;
  message: string;
}

/** `../shared/vectors/bt-auth-v1.json`, beside the repository. */
export const VECTORS_FILE = resolve(__dirname, '../../../../shared/vectors/bt-auth-v1.json');

export function loadVectors(): AuthVector[] {
  return (JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as { cases: AuthVector[] }).cases;
}

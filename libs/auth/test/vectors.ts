import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface AuthVector {
  name: string;
  method: string;
  path: string;
  query: string;
  timestamp: string;
  raw_body: string | null;
  canonical_body: string;
  body_sha256: string;
  message: string;
}

/** `../shared/vectors/bt-auth-v1.json`, beside the repository. */
export const VECTORS_FILE = resolve(__dirname, '../../../../shared/vectors/bt-auth-v1.json');

export function loadVectors(): AuthVector[] {
  return (JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as { cases: AuthVector[] }).cases;
}

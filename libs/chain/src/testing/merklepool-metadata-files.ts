import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * BitSota's published claim contract metadata (public data in the shared material, never copied into
 * the repository): the current `merklepool` (ink! 5.1.1, BitSota commit a642a7de, `ClaimData` with the
 * hotkey) and its predecessor (5a988bf, `ClaimData` without it).
 */
export const MERKLEPOOL_METADATA_PATH = resolve(__dirname, '../../../../../shared/chain/merklepool-a642a7de.json');
export const MERKLEPOOL_5A988BF_METADATA_PATH = resolve(__dirname, '../../../../../shared/chain/merklepool-5a988bf.json');

export function readMerklepoolMetadata(path = MERKLEPOOL_METADATA_PATH): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

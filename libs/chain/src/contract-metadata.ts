import { readFile } from 'node:fs/promises';
import { Abi } from '@polkadot/api-contract';
import { errorText } from './errors';
import { REQUIRED_CLAIM_CONTRACT_MESSAGES } from './ports/claim-contract.port';

export interface ContractMetadataSummary {
  exists: boolean;
  /** Message labels (`spec.messages[].label`) in declaration order. */
  messages: string[];
  error: string | null;
}

/**
 * Reads the message labels of an ink! metadata JSON file. `Abi` accepts the v4/v5 shape
 * (top-level `version`) as well as the older `{"V3": {"spec": …}}` one. Never throws.
 */
export async function readContractMetadata(path: string): Promise<ContractMetadataSummary> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { exists: false, messages: [], error: `contract metadata not readable at ${path}: ${errorText(error)}` };
  }
  try {
    const abi = new Abi(JSON.parse(text) as Record<string, unknown>);
    return { exists: true, messages: abi.messages.map((message) => message.identifier), error: null };
  } catch (error) {
    return { exists: true, messages: [], error: `contract metadata at ${path} is not ink! metadata: ${errorText(error)}` };
  }
}

export function hasRequiredMessages(messages: readonly string[]): boolean {
  return REQUIRED_CLAIM_CONTRACT_MESSAGES.every((required) => messages.includes(required));
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Abi } from '@polkadot/api-contract';
import { blake2b } from '@noble/hashes/blake2';
import { hasRequiredMessages, readContractMetadata } from '../contract-metadata';
import { CLAIM_CONTRACT_ERROR_CODES, CLAIM_CONTRACT_MESSAGES } from '../ports/claim-contract.port';
import { claimContractMetadata, errorVariantOf } from './claim-contract-metadata';

describe('claimContractMetadata (test-only ink! metadata of the §8 messages)', () => {
  it('declares every message the port calls, with ink! default selectors and §8 argument types', () => {
    const abi = new Abi(claimContractMetadata());
    expect(abi.messages.map((message) => message.identifier).sort()).toEqual([...CLAIM_CONTRACT_MESSAGES].sort());
    for (const message of abi.messages) {
      const expected = `0x${Buffer.from(blake2b(Buffer.from(message.identifier), { dkLen: 32 }).subarray(0, 4)).toString('hex')}`;
      expect({ label: message.identifier, selector: message.selector.toHex() }).toEqual({ label: message.identifier, selector: expected });
    }
    expect(abi.findMessage('publish_epoch').selector.toHex()).toBe('0x2c139004');
    expect(abi.findMessage('publish_epoch').args.map((arg) => [arg.name, arg.type.type])).toEqual([
      ['epoch', 'u64'],
      ['root', 'Hash'],
      ['numOfLeaves', 'u32'],
      ['totalRao', 'u64'],
      ['uri', 'Text'],
    ]);
    const claimData = abi.findMessage('claim_single').args[0];
    expect(claimData.type.sub).toEqual(
      ['epoch', 'index', 'hotkey', 'recipientColdkey', 'amount', 'proof'].map((name) => expect.objectContaining({ name })),
    );
  });

  it('names one error variant per refusal code, and is read by the status code as complete', async () => {
    expect(errorVariantOf('claims_not_open')).toBe('ClaimsNotOpen');
    const abi = new Abi(claimContractMetadata());
    const errorType = abi.registry.createType(abi.findMessage('publish_epoch').returnType?.type ?? 'Null', { Ok: { Err: 'NothingToClaim' } });
    expect(errorType.toJSON()).toEqual({ ok: { err: 'NothingToClaim' } });
    expect(CLAIM_CONTRACT_ERROR_CODES.map(errorVariantOf)).toContain('EpochNotClaimable');

    const dir = mkdtempSync(join(tmpdir(), 'rcs-claim-metadata-'));
    try {
      writeFileSync(join(dir, 'merklepool.json'), JSON.stringify(claimContractMetadata()));
      const summary = await readContractMetadata(join(dir, 'merklepool.json'));
      expect(summary.error).toBeNull();
      expect(hasRequiredMessages(summary.messages)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

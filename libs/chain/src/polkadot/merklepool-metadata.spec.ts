import { Abi } from '@polkadot/api-contract';
import { blake2AsHex, encodeAddress } from '@polkadot/util-crypto';
import { compactToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { encodeClaimLeaf } from '@rcs/merkle';
import { MERKLEPOOL_5A988BF_METADATA_PATH, MERKLEPOOL_METADATA_PATH, readMerklepoolMetadata } from '../testing/merklepool-metadata-files';
import { assertMerklepoolMetadata, MERKLEPOOL_EVENTS, MERKLEPOOL_MESSAGES, MERKLEPOOL_TYPES, merklepoolIncompatibilities, merklepoolShape, MerklepoolMetadataError } from './merklepool-metadata';

const account = (n: number): string => encodeAddress(new Uint8Array(32).fill(n), 42);

describe('merklepool metadata (the real files BitSota publishes)', () => {
  it('a642a7de declares every message, type and event the adapter uses exactly as DECISIONS §8 says', () => {
    const shape = merklepoolShape(readMerklepoolMetadata());
    expect(shape).toEqual({ messages: MERKLEPOOL_MESSAGES, types: MERKLEPOOL_TYPES, events: MERKLEPOOL_EVENTS });
    expect(merklepoolIncompatibilities(readMerklepoolMetadata())).toEqual([]);
    // Pinned literally, so that a change of the adapter's expectations shows in review.
    expect(shape.messages.get_epoch_info).toBe('get_epoch_info(epoch: u64) -> Result<Epoch, ReadWriteErrorCode>');
    expect(shape.messages.get_latest_published_epoch).toBe('get_latest_published_epoch() -> Option<u64>');
    expect(shape.types.ReadWriteErrorCode).toBe('ReadWriteErrorCode {ReadFailed | WriteFailed}');
  });

  it('uses ink! default selectors, and the 84-byte leaf is the SCALE encoding of ClaimData without its proof', () => {
    const abi = new Abi(readMerklepoolMetadata());
    for (const label of Object.keys(MERKLEPOOL_MESSAGES)) {
      expect([label, abi.findMessage(label).selector.toHex()]).toEqual([label, blake2AsHex(label, 256).slice(0, 10)]);
    }
    const proof = [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`];
    const data = { epoch: 7, index: 3, hotkey: account(1), recipientColdkey: account(2), amount: 4_000_000_001n, proof };
    const call = abi.findMessage('claim_single').toU8a([data, true]);
    const leaf = encodeClaimLeaf({ epoch: 7, index: 3, hotkey: account(1), recipientColdkey: account(2), amount: 4_000_000_001n });
    // compact(length) ‖ selector ‖ ClaimData (leaf ‖ proof) ‖ transfer
    const body = u8aConcat(abi.findMessage('claim_single').selector.toU8a(), leaf, compactToU8a(2), ...proof.map((hash) => Buffer.from(hash.slice(2), 'hex')), [1]);
    expect(u8aToHex(call)).toBe(u8aToHex(u8aConcat(compactToU8a(body.length), body)));
    expect(leaf).toHaveLength(84);
  });

  it('refuses 5a988bf (ClaimData without the hotkey) at start, naming every difference', () => {
    const old = readMerklepoolMetadata(MERKLEPOOL_5A988BF_METADATA_PATH);
    expect(merklepoolIncompatibilities(old)).toEqual([
      'type ClaimData is ClaimData {epoch: u64, index: u32, recipient_coldkey: AccountId, amount: u64, proof: Vec<Hash>} (expected ClaimData {epoch: u64, index: u32, hotkey: AccountId, recipient_coldkey: AccountId, amount: u64, proof: Vec<Hash>})',
      'message get_latest_published_epoch is missing (expected get_latest_published_epoch() -> Option<u64>)',
      'message get_claimed_cumulative_rao is missing (expected get_claimed_cumulative_rao(hotkey: AccountId) -> u64)',
      'event Claimed is Claimed(#epoch: u64, index: u32, recipient: AccountId, amount: u64) (expected Claimed(#epoch: u64, index: u32, hotkey: AccountId, recipient: AccountId, amount: u64))',
    ]);
    expect(() => assertMerklepoolMetadata(old, MERKLEPOOL_5A988BF_METADATA_PATH)).toThrow(MerklepoolMetadataError);
    expect(() => assertMerklepoolMetadata(old, MERKLEPOOL_5A988BF_METADATA_PATH)).toThrow(
      /^claim contract metadata at .*merklepool-5a988bf\.json is not the contract this pool speaks \(merklepool \(ink! 5\.1\.1\) at BitSota commit a642a7de\): type ClaimData is/,
    );
    expect(() => assertMerklepoolMetadata(readMerklepoolMetadata(), MERKLEPOOL_METADATA_PATH)).not.toThrow();
  });
});

import { blake2AsHex } from '@polkadot/util-crypto';
import { CLAIM_CONTRACT_ERROR_CODES, type ClaimContractErrorCode } from '../ports/claim-contract.port';

/**
 * ink! v5 metadata of the claim contract's messages as DECISIONS §8 lists them (`merklepool`:
 * `Balance = u64`, `BlockNumber = u32`, `ClaimData`, `Epoch`), written here for tests because the
 * contract's own metadata file is not part of the shared material. Selectors are ink!'s default
 * (the first 4 bytes of BLAKE2b-256 of the message label). Mutating
 * messages answer `Result<(), Error>`; `Error` has one variant per `ClaimContractErrorCode`
 * (PascalCase), the names the `polkadot` adapter maps back.
 */
export function claimContractMetadata(): Record<string, unknown> {
  const prim = (id: number, primitive: string) => ({ id, type: { def: { primitive } } });
  const result = (id: number, ok: number, err: number) => ({
    id,
    type: {
      def: { variant: { variants: [{ index: 0, name: 'Ok', fields: [{ type: ok }] }, { index: 1, name: 'Err', fields: [{ type: err }] }] } },
      params: [{ name: 'T', type: ok }, { name: 'E', type: err }],
      path: ['Result'],
    },
  });
  const option = (id: number, some: number) => ({
    id,
    type: { def: { variant: { variants: [{ index: 0, name: 'None' }, { index: 1, name: 'Some', fields: [{ type: some }] }] } }, params: [{ name: 'T', type: some }], path: ['Option'] },
  });
  const composite = (id: number, path: string[], fields: Array<{ name?: string; type: number; typeName: string }>) => ({ id, type: { def: { composite: { fields } }, path } });

  const T = { bool: 0, u8: 1, bytes32: 2, accountId: 3, hash: 4, u64: 5, u32: 6, str: 7, hashes: 8, claimData: 9, epoch: 10, optionEpoch: 11, optionU64: 12, unit: 13, langError: 14, error: 15 };
  const R = { unitOrError: 16, messageUnitOrError: 17, messageOptionEpoch: 18, messageOptionU64: 19, messageU64: 20, constructorResult: 21, chainExtension: 22 };
  // A struct's named fields in order, each given by its type's name in the contract's Rust source.
  const rustTypes = { bool: T.bool, '[u8; 32]': T.bytes32, AccountId: T.accountId, u32: T.u32, u64: T.u64, 'Vec<Hash>': T.hashes };
  const fields = (types: Record<string, keyof typeof rustTypes>) => Object.entries(types).map(([name, typeName]) => ({ name, type: rustTypes[typeName], typeName }));
  const types = [
    prim(T.bool, 'bool'),
    prim(T.u8, 'u8'),
    { id: T.bytes32, type: { def: { array: { len: 32, type: T.u8 } } } },
    composite(T.accountId, ['ink_primitives', 'types', 'AccountId'], [{ type: T.bytes32, typeName: '[u8; 32]' }]),
    composite(T.hash, ['ink_primitives', 'types', 'Hash'], [{ type: T.bytes32, typeName: '[u8; 32]' }]),
    prim(T.u64, 'u64'),
    prim(T.u32, 'u32'),
    prim(T.str, 'str'),
    { id: T.hashes, type: { def: { sequence: { type: T.hash } } } },
    composite(T.claimData, ['merklepool', 'merklepool', 'ClaimData'], fields({ epoch: 'u64', index: 'u32', hotkey: 'AccountId', recipient_coldkey: 'AccountId', amount: 'u64', proof: 'Vec<Hash>' })),
    composite(T.epoch, ['merklepool', 'merklepool', 'Epoch'], fields({ root: '[u8; 32]', num_of_leaves: 'u32', total_rao: 'u64', spent_rao: 'u64', disputed: 'bool', claims_open_at: 'u32', bond_rao: 'u64' })),
    option(T.optionEpoch, T.epoch),
    option(T.optionU64, T.u64),
    { id: T.unit, type: { def: { tuple: [] } } },
    { id: T.langError, type: { def: { variant: { variants: [{ index: 1, name: 'CouldNotReadInput' }] } }, path: ['ink_primitives', 'LangError'] } },
    {
      id: T.error,
      type: { def: { variant: { variants: CLAIM_CONTRACT_ERROR_CODES.map((code, index) => ({ index, name: errorVariantOf(code) })) } }, path: ['merklepool', 'merklepool', 'Error'] },
    },
    result(R.unitOrError, T.unit, T.error),
    result(R.messageUnitOrError, R.unitOrError, T.langError),
    result(R.messageOptionEpoch, T.optionEpoch, T.langError),
    result(R.messageOptionU64, T.optionU64, T.langError),
    result(R.messageU64, T.u64, T.langError),
    result(R.constructorResult, T.unit, T.langError),
    { id: R.chainExtension, type: { def: { variant: {} }, path: ['merklepool', 'RuntimeReadWrite'] } },
  ];

  const arg = (label: string, type: number, displayName: string) => ({ label, type: { displayName: [displayName], type } });
  const message = (label: string, mutates: boolean, args: ReturnType<typeof arg>[], returnType: number) => ({
    label,
    selector: blake2AsHex(label, 256).slice(0, 10),
    args,
    mutates,
    payable: false,
    default: false,
    docs: [],
    returnType: { displayName: ['ink', 'MessageResult'], type: returnType },
  });
  const messages = [
    message('publish_epoch', true, [arg('epoch', T.u64, 'u64'), arg('root', T.hash, 'Hash'), arg('num_of_leaves', T.u32, 'u32'), arg('total_rao', T.u64, 'u64'), arg('uri', T.str, 'String')], R.messageUnitOrError),
    message('claim_single', true, [arg('data', T.claimData, 'ClaimData'), arg('transfer', T.bool, 'bool')], R.messageUnitOrError),
    message('challenge_epoch', true, [arg('epoch', T.u64, 'u64'), arg('evidence_hash', T.hash, 'Hash')], R.messageUnitOrError),
    message('resolve_challenge', true, [arg('epoch', T.u64, 'u64'), arg('slash', T.bool, 'bool'), arg('beneficiary', T.accountId, 'AccountId')], R.messageUnitOrError),
    message('get_latest_published_epoch', false, [], R.messageOptionU64),
    message('get_claimed_cumulative_rao', false, [arg('hotkey', T.accountId, 'AccountId')], R.messageU64),
    message('get_epoch_info', false, [arg('epoch', T.u64, 'u64')], R.messageOptionEpoch),
  ];

  const display = (name: string, type: number) => ({ displayName: [name], type });
  return {
    source: { hash: `0x${'22'.repeat(32)}`, language: 'ink! 5.1.1', compiler: 'rustc 1.89.0' },
    contract: { name: 'merklepool', version: '0.1.0', authors: ['rcs tests'] },
    spec: {
      constructors: [{ label: 'new', selector: '0x9bae9d5e', args: [], payable: false, default: false, docs: [], returnType: { displayName: ['ink_primitives', 'ConstructorResult'], type: R.constructorResult } }],
      docs: [],
      events: [],
      environment: {
        accountId: display('AccountId', T.accountId),
        balance: display('Balance', T.u64),
        blockNumber: display('BlockNumber', T.u32),
        chainExtension: display('ChainExtension', R.chainExtension),
        hash: display('Hash', T.hash),
        maxEventTopics: 4,
        staticBufferSize: 16384,
        timestamp: display('Timestamp', T.u64),
      },
      lang_error: { displayName: ['ink', 'LangError'], type: T.langError },
      messages,
    },
    storage: { root: { layout: { struct: { fields: [], name: 'Merklepool' } }, root_key: '0x00000000', ty: T.unit } },
    types,
    version: 5,
  };
}

/** `claims_locked` → `ClaimsLocked`. */
export function errorVariantOf(code: ClaimContractErrorCode): string {
  return code.replace(/(^|_)([a-z])/g, (_, __: string, letter: string) => letter.toUpperCase());
}

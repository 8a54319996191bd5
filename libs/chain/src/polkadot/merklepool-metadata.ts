/** The claim contract this adapter speaks: BitSota's `merklepool`, ink! 5.1.1, as published at BitSota commit a642a7de. */
export const MERKLEPOOL_COMPATIBLE_VERSION = 'merklepool (ink! 5.1.1) at BitSota commit a642a7de';

/**
 * Every message the adapter calls, as the contract's ink! metadata declares it (`ink::MessageResult`
 * unwrapped): DECISIONS §8. The adapter encodes arguments and decodes answers by these types.
 */
export const MERKLEPOOL_MESSAGES = {
  publish_epoch: 'publish_epoch(epoch: u64, root: Hash, num_of_leaves: u32, total_rao: u64, uri: str) -> Result<(), ReadWriteErrorCode>',
  claim_single: 'claim_single(data: ClaimData, transfer: bool) -> Result<(), ReadWriteErrorCode>',
  challenge_epoch: 'challenge_epoch(epoch: u64, evidence_hash: Hash) -> Result<(), ReadWriteErrorCode>',
  resolve_challenge: 'resolve_challenge(epoch: u64, slash: bool, _beneficiary: AccountId) -> Result<(), ReadWriteErrorCode>',
  get_latest_published_epoch: 'get_latest_published_epoch() -> Option<u64>',
  get_claimed_cumulative_rao: 'get_claimed_cumulative_rao(hotkey: AccountId) -> u64',
  get_epoch_info: 'get_epoch_info(epoch: u64) -> Result<Epoch, ReadWriteErrorCode>',
} as const;

/** The contract's own types the messages above carry. */
export const MERKLEPOOL_TYPES = {
  ClaimData: 'ClaimData {epoch: u64, index: u32, hotkey: AccountId, recipient_coldkey: AccountId, amount: u64, proof: Vec<Hash>}',
  Epoch: 'Epoch {root: [u8; 32], num_of_leaves: u32, total_rao: u64, spent_rao: u64, disputed: bool, claims_open_at: u32, bond_rao: u64}',
  ReadWriteErrorCode: 'ReadWriteErrorCode {ReadFailed | WriteFailed}',
} as const;

/** The events the adapter decodes from a transaction's block (`#` marks a topic). */
export const MERKLEPOOL_EVENTS = {
  EpochPublished: 'EpochPublished(#epoch: u64, root: Hash, total_rao: u64, uri: str)',
  Claimed: 'Claimed(#epoch: u64, index: u32, hotkey: AccountId, recipient: AccountId, amount: u64)',
  Challenged: 'Challenged(#epoch: u64, evidence_hash: Hash, challenger: AccountId)',
  ChallengeResolved: 'ChallengeResolved(#epoch: u64, slashed: bool, resolver: AccountId)',
} as const;

interface PortableType {
  id: number;
  type: {
    path?: string[];
    params?: Array<{ name: string; type?: number | null }>;
    def: {
      primitive?: string;
      array?: { len: number; type: number };
      sequence?: { type: number };
      tuple?: number[];
      composite?: { fields?: Array<{ name?: string; type: number }> };
      variant?: { variants?: Array<{ name: string; fields?: Array<{ name?: string; type: number }> }> };
      compact?: { type: number };
    };
  };
}

interface ArgSpec {
  label: string;
  type: { type: number };
  indexed?: boolean;
}

interface InkSpec {
  messages?: Array<{ label: string; args: ArgSpec[]; returnType?: { type: number } | null }>;
  events?: Array<{ label: string; args: ArgSpec[] }>;
}

/** The declared shapes of the adapter's messages, types and events, read from an ink! v4/v5 metadata document. */
export interface MerklepoolShape {
  messages: Record<string, string>;
  types: Record<string, string>;
  events: Record<string, string>;
}

/** Reads the shapes `MERKLEPOOL_*` list out of the metadata document, in the same notation. */
export function merklepoolShape(metadata: Record<string, unknown>): MerklepoolShape {
  const spec = (metadata['spec'] ?? {}) as InkSpec;
  const types = new Map(((metadata['types'] ?? []) as PortableType[]).map((entry) => [entry.id, entry.type]));
  const named = new Map<string, number>();

  const render = (id: number): string => {
    const type = types.get(id);
    if (!type) return `?${id}`;
    const { def, path = [], params = [] } = type;
    const name = path.at(-1);
    const param = (i: number): string => {
      const p = params[i]?.type;
      return p === undefined || p === null ? '?' : render(p);
    };
    if (name === 'Option') return `Option<${param(0)}>`;
    if (name === 'Result') return `Result<${param(0)}, ${param(1)}>`;
    if (name !== undefined) {
      if (path[0] !== 'ink_primitives') named.set(name, id);
      return name;
    }
    if (def.primitive) return def.primitive;
    if (def.array) return `[${render(def.array.type)}; ${def.array.len}]`;
    if (def.sequence) return `Vec<${render(def.sequence.type)}>`;
    if (def.compact) return `Compact<${render(def.compact.type)}>`;
    if (def.tuple) return `(${def.tuple.map(render).join(', ')})`;
    return `?${id}`;
  };

  const definition = (name: string): string => {
    const id = named.get(name);
    const type = id === undefined ? undefined : types.get(id);
    if (id === undefined || !type) return 'not declared';
    if (type.def.composite) return `${name} {${(type.def.composite.fields ?? []).map((field) => `${field.name ?? '_'}: ${render(field.type)}`).join(', ')}}`;
    if (type.def.variant) return `${name} {${(type.def.variant.variants ?? []).map((variant) => variant.name).join(' | ')}}`;
    return name;
  };

  // ink! wraps every message's answer in `MessageResult<T> = Result<T, LangError>`.
  const answer = (id: number | undefined): string => {
    if (id === undefined) return '()';
    const type = types.get(id);
    const inner = type?.path?.at(-1) === 'Result' ? type.params?.[0]?.type : undefined;
    const errorId = type?.params?.[1]?.type;
    const isMessageResult = inner !== undefined && inner !== null && errorId !== undefined && errorId !== null && types.get(errorId)?.path?.at(-1) === 'LangError';
    return isMessageResult ? render(inner) : render(id);
  };

  const messages: Record<string, string> = {};
  for (const message of spec.messages ?? []) {
    if (!(message.label in MERKLEPOOL_MESSAGES)) continue;
    messages[message.label] = `${message.label}(${message.args.map((arg) => `${arg.label}: ${render(arg.type.type)}`).join(', ')}) -> ${answer(message.returnType?.type)}`;
  }
  const events: Record<string, string> = {};
  for (const event of spec.events ?? []) {
    if (!(event.label in MERKLEPOOL_EVENTS)) continue;
    events[event.label] = `${event.label}(${event.args.map((arg) => `${arg.indexed ? '#' : ''}${arg.label}: ${render(arg.type.type)}`).join(', ')})`;
  }
  const declared: Record<string, string> = {};
  for (const name of Object.keys(MERKLEPOOL_TYPES)) declared[name] = definition(name);
  return { messages, types: declared, events };
}

/**
 * What keeps the metadata document from being the contract this adapter speaks (empty when it is):
 * every message, type and event of `MERKLEPOOL_*` must be declared exactly so. An older merklepool
 * (5a988bf: `ClaimData` without the hotkey) would be sent leaves it cannot verify, so it is refused.
 */
export function merklepoolIncompatibilities(metadata: Record<string, unknown>): string[] {
  const shape = merklepoolShape(metadata);
  const problems: string[] = [];
  const compare = (kind: string, expected: Record<string, string>, actual: Record<string, string>): void => {
    for (const [name, wanted] of Object.entries(expected)) {
      const found = actual[name];
      if (found === undefined) problems.push(`${kind} ${name} is missing (expected ${wanted})`);
      else if (found !== wanted) problems.push(`${kind} ${name} is ${found} (expected ${wanted})`);
    }
  };
  compare('type', MERKLEPOOL_TYPES, shape.types);
  compare('message', MERKLEPOOL_MESSAGES, shape.messages);
  compare('event', MERKLEPOOL_EVENTS, shape.events);
  return problems;
}

/** Refuses metadata that is not `MERKLEPOOL_COMPATIBLE_VERSION`'s, naming every difference. */
export function assertMerklepoolMetadata(metadata: Record<string, unknown>, path: string): void {
  const problems = merklepoolIncompatibilities(metadata);
  if (problems.length === 0) return;
  throw new MerklepoolMetadataError(
    `claim contract metadata at ${path} is not the contract this pool speaks (${MERKLEPOOL_COMPATIBLE_VERSION}): ${problems.join('; ')}`,
  );
}

export class MerklepoolMetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MerklepoolMetadataError';
  }
}

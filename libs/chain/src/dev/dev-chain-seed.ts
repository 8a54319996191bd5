import { isRecord } from '@rcs/contracts';
import { isZeroAccount, toSs58 } from '../address';
import { ChainConfigError } from '../errors';

/** One neuron of a seeded subnet: its alpha stake, its uid when registered, and the coldkey that owns it when recorded. */
export interface DevSeedNeuron {
  hotkey: string;
  stake: bigint;
  uid: number | null;
  /** `SubtensorModule::Owner(hotkey)`, SS58 prefix 42; global on chain, so one hotkey has one owner in every subnet. */
  owner: string | null;
}

/** Seeded subnets by netuid. */
export interface DevChainSeed {
  subnets: Map<number, DevSeedNeuron[]>;
}

export function emptyDevChainSeed(): DevChainSeed {
  return { subnets: new Map() };
}

const U16_MAX = 65_535;

/**
 * Validates the parsed `DEV_CHAIN_SEED` JSON:
 * `{"subnets": {"<netuid>": [{"hotkey": "<ss58>", "stake": "<rao decimal string>", "uid": <int|null>, "owner": "<ss58>"}]}}`.
 * Uids of a subnet must be 0..n-1 without gaps (uid = metagraph index); `uid` may be omitted for null,
 * `owner` (the coldkey, any prefix) for none. Owners are global, as `SubtensorModule::Owner` is: a hotkey
 * listed in several subnets may repeat its owner but not name another.
 */
export function parseDevChainSeed(value: unknown): DevChainSeed {
  const problems: string[] = [];
  const seed = emptyDevChainSeed();
  if (!isRecord(value) || !isRecord(value['subnets'])) {
    throw new ChainConfigError(['DEV_CHAIN_SEED must be an object with a "subnets" object']);
  }
  for (const [netuidText, neurons] of Object.entries(value['subnets'])) {
    const where = `DEV_CHAIN_SEED subnets.${netuidText}`;
    const netuid = Number(netuidText);
    if (!/^\d+$/.test(netuidText) || netuid > U16_MAX) {
      problems.push(`${where}: netuid must be an integer 0..${U16_MAX}`);
      continue;
    }
    if (!Array.isArray(neurons)) {
      problems.push(`${where}: must be an array of neurons`);
      continue;
    }
    const parsed = neurons.flatMap((neuron: unknown, index) => parseNeuron(neuron, `${where}[${index}]`, problems));
    problems.push(...subnetProblems(parsed, where));
    seed.subnets.set(netuid, parsed);
  }
  problems.push(...ownerConflicts(seed));
  if (problems.length > 0) throw new ChainConfigError(problems);
  return seed;
}

function parseNeuron(neuron: unknown, where: string, problems: string[]): DevSeedNeuron[] {
  if (!isRecord(neuron)) {
    problems.push(`${where}: must be an object`);
    return [];
  }
  const hotkey = parseHotkey(neuron['hotkey']);
  const stakeText = neuron['stake'];
  const stake = typeof stakeText === 'string' && /^\d+$/.test(stakeText) ? BigInt(stakeText) : null;
  const uid = neuron['uid'] ?? null;
  const uidValid = uid === null || (typeof uid === 'number' && Number.isInteger(uid) && uid >= 0 && uid <= U16_MAX);
  const ownerText = neuron['owner'] ?? null;
  const owner = ownerText === null ? null : parseHotkey(ownerText);
  if (hotkey === null) problems.push(`${where}.hotkey: must be an SS58 address`);
  if (stake === null) problems.push(`${where}.stake: must be a decimal string of rao`);
  if (!uidValid) problems.push(`${where}.uid: must be an integer 0..${U16_MAX} or null`);
  if (ownerText !== null && owner === null) problems.push(`${where}.owner: must be an SS58 address (the coldkey), or omitted for none`);
  if (owner !== null && isZeroAccount(owner)) problems.push(`${where}.owner: the all-zero account is how the chain says "no owner"; omit owner instead`);
  const ownerValid = ownerText === null || (owner !== null && !isZeroAccount(owner));
  return hotkey !== null && stake !== null && uidValid && ownerValid ? [{ hotkey, stake, uid, owner }] : [];
}

function parseHotkey(value: unknown): string | null {
  try {
    return typeof value === 'string' ? toSs58(value) : null;
  } catch {
    return null;
  }
}

/** A hotkey given two different owners (in two subnets: `Owner` is not per subnet). */
function ownerConflicts(seed: DevChainSeed): string[] {
  const owners = new Map<string, { owner: string; netuid: number }>();
  const problems: string[] = [];
  for (const [netuid, neurons] of seed.subnets) {
    for (const { hotkey, owner } of neurons) {
      if (owner === null) continue;
      const first = owners.get(hotkey);
      if (!first) owners.set(hotkey, { owner, netuid });
      else if (first.owner !== owner) {
        problems.push(`DEV_CHAIN_SEED: hotkey ${hotkey} has owner ${first.owner} in subnets.${first.netuid} and ${owner} in subnets.${netuid}; a hotkey has one owner on chain`);
      }
    }
  }
  return problems;
}

function subnetProblems(neurons: DevSeedNeuron[], where: string): string[] {
  const problems: string[] = [];
  const hotkeys = new Set<string>();
  for (const { hotkey } of neurons) {
    if (hotkeys.has(hotkey)) problems.push(`${where}: hotkey ${hotkey} appears twice`);
    hotkeys.add(hotkey);
  }
  const uids = neurons.flatMap(({ uid }) => (uid === null ? [] : [uid])).sort((a, b) => a - b);
  if (uids.some((uid, index) => uid !== index)) {
    problems.push(`${where}: uids must be 0..n-1, each once (found ${uids.join(', ')})`);
  }
  return problems;
}

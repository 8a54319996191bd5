import type { ApiPromise } from '@polkadot/api';
import { u8aToHex } from '@polkadot/util';
import type { KeyringPair } from '@polkadot/keyring/types';
import { accountIdOf, isZeroAccount, toSs58 } from '../address';
import { ExtrinsicFailedError } from '../errors';
import type {
  CommitTimelockedWeightsRequest,
  DrandBeaconConfig,
  SetWeightsRequest,
  SubtensorPort,
  TimelockedCommit,
  WeightsInclusion,
  WeightsRules,
} from '../ports/subtensor.port';
import type { PolkadotConnection } from './polkadot-connection';
import { findStorage, storage } from './storage';
import { submitAndWatch } from './submit-extrinsic';

/** How long a submitted extrinsic may take to reach a block (Subtensor blocks are 12 s). */
export const DEFAULT_INCLUSION_TIMEOUT_MS = 120_000;
/** Subtensor's block time. */
const DEFAULT_BLOCK_TIME_MS = 12_000;

/** `SubtensorPort` over a Subtensor node, keys and decoding taken from the node's own runtime metadata. */
export class PolkadotSubtensor implements SubtensorPort {
  constructor(
    private readonly connection: PolkadotConnection,
    private readonly inclusionTimeoutMs = DEFAULT_INCLUSION_TIMEOUT_MS,
  ) {}

  latestBlock(): Promise<number> {
    return this.connection.run('chain_getHeader', async (api) => (await api.rpc.chain.getHeader()).number.toNumber());
  }

  async alphaStake(hotkey: string, netuid: number): Promise<bigint> {
    const accountId = accountIdOf(hotkey);
    return this.connection.run('SubtensorModule.TotalHotkeyAlpha', async (api) => {
      const stake = await storage(api, 'subtensorModule', 'totalHotkeyAlpha')(accountId, netuid);
      return BigInt(stake.toString());
    });
  }

  async uidOf(hotkey: string, netuid: number): Promise<number | null> {
    const accountId = accountIdOf(hotkey);
    return this.connection.run('SubtensorModule.Uids', async (api) => {
      const uid = (await storage(api, 'subtensorModule', 'uids')(netuid, accountId)).toJSON();
      return typeof uid === 'number' ? uid : null;
    });
  }

  async ownerOf(hotkey: string): Promise<string | null> {
    const accountId = accountIdOf(hotkey);
    return this.connection.run('SubtensorModule.Owner', async (api) => {
      // A ValueQuery: a hotkey nobody owns reads as the all-zero AccountId, its default.
      const owner = (await storage(api, 'subtensorModule', 'owner')(accountId)).toU8a();
      return isZeroAccount(owner) ? null : toSs58(owner);
    });
  }

  metagraphHotkeys(netuid: number): Promise<string[]> {
    return this.connection.run('SubtensorModule.Keys', async (api) => {
      const count = Number((await storage(api, 'subtensorModule', 'subnetworkN')(netuid)).toString());
      if (count === 0) return [];
      const uids = Array.from({ length: count }, (_, uid) => [netuid, uid]);
      const accounts = await storage(api, 'subtensorModule', 'keys').multi(uids);
      return accounts.map((account) => toSs58(account.toU8a()));
    });
  }

  lastUpdate(netuid: number): Promise<number[]> {
    return this.connection.run('SubtensorModule.LastUpdate', async (api) => {
      const blocks = await storage(api, 'subtensorModule', 'lastUpdate')(netuid);
      return (blocks as unknown as { toString(): string }[]).map((block) => Number(block.toString()));
    });
  }

  weightsSetRateLimit(netuid: number): Promise<number> {
    return this.connection.run('SubtensorModule.WeightsSetRateLimit', async (api) => Number((await storage(api, 'subtensorModule', 'weightsSetRateLimit')(netuid)).toString()));
  }

  commitRevealWeightsEnabled(netuid: number): Promise<boolean> {
    return this.connection.run('SubtensorModule.CommitRevealWeightsEnabled', async (api) => (await storage(api, 'subtensorModule', 'commitRevealWeightsEnabled')(netuid)).toJSON() === true);
  }

  setWeights(signer: KeyringPair, request: SetWeightsRequest): Promise<WeightsInclusion> {
    return this.#submit('set_weights', 'setWeights', signer, [request.netuid, request.uids, request.values, request.versionKey]);
  }

  commitTimelockedWeights(signer: KeyringPair, request: CommitTimelockedWeightsRequest): Promise<WeightsInclusion> {
    return this.#submit('commit_timelocked_weights', 'commitTimelockedWeights', signer, [request.netuid, u8aToHex(request.commit), request.revealRound, request.commitRevealVersion]);
  }

  weightsRules(netuid: number): Promise<WeightsRules> {
    return this.connection.run('SubtensorModule weight rules', async (api) => {
      const item = (name: string) => storage(api, 'subtensorModule', name);
      const [tempo, versionKey, minAllowed, maxLimit, permits, size, rateLimit, enabled, crVersion, revealPeriod] = await Promise.all([
        item('tempo')(netuid),
        item('weightsVersionKey')(netuid),
        item('minAllowedWeights')(netuid),
        item('maxWeightsLimit')(netuid),
        item('validatorPermit')(netuid),
        item('subnetworkN')(netuid),
        item('weightsSetRateLimit')(netuid),
        item('commitRevealWeightsEnabled')(netuid),
        item('commitRevealWeightsVersion')(),
        item('revealPeriodEpochs')(netuid),
      ]);
      const epochIndex = findStorage(api, 'subtensorModule', 'subnetEpochIndex');
      return {
        tempo: Number(tempo.toString()),
        weightsVersionKey: BigInt(versionKey.toString()),
        minAllowedWeights: Number(minAllowed.toString()),
        maxWeightsLimit: Number(maxLimit.toString()),
        validatorPermit: (permits.toJSON() as boolean[] | null) ?? [],
        subnetSize: Number(size.toString()),
        weightsSetRateLimit: Number(rateLimit.toString()),
        commitRevealEnabled: enabled.toJSON() === true,
        commitRevealVersion: Number(crVersion.toString()),
        revealPeriodEpochs: Number(revealPeriod.toString()),
        blockTimeMs: blockTimeMsOf(api),
        epochSchedule: epochIndex ? 'stateful' : 'legacy',
        epochState: epochIndex ? await readEpochState(api, netuid) : null,
      };
    });
  }

  drandBeacon(): Promise<DrandBeaconConfig> {
    return this.connection.run('Drand.BeaconConfig', async (api) => {
      const config = (await storage(api, 'drand', 'beaconConfig')()) as unknown as { publicKey: { toU8a(bare: boolean): Uint8Array }; genesisTime: { toNumber(): number }; period: { toNumber(): number } };
      return { publicKey: config.publicKey.toU8a(true), genesisTime: config.genesisTime.toNumber(), period: config.period.toNumber() };
    });
  }

  timelockedCommits(netuid: number, hotkey: string): Promise<TimelockedCommit[]> {
    const who = toSs58(hotkey);
    return this.connection.run('SubtensorModule.TimelockedWeightCommits', async (api) => {
      const entries = await storage(api, 'subtensorModule', 'timelockedWeightCommits').entries(netuid);
      const commits: TimelockedCommit[] = [];
      for (const [key, value] of entries) {
        const epoch = Number(key.args[1].toString());
        for (const [account, commitBlock, commit, revealRound] of value as unknown as [{ toU8a(): Uint8Array }, { toString(): string }, { toU8a(bare: boolean): Uint8Array }, { toString(): string }][]) {
          const committer = toSs58(account.toU8a());
          if (committer !== who) continue;
          commits.push({ epoch, hotkey: committer, commitBlock: Number(commitBlock.toString()), commit: commit.toU8a(true), revealRound: BigInt(revealRound.toString()) });
        }
      }
      return commits.sort((a, b) => a.epoch - b.epoch || a.commitBlock - b.commitBlock);
    });
  }

  uidWeights(netuid: number, uid: number): Promise<[number, number][]> {
    return this.connection.run('SubtensorModule.Weights', async (api) => {
      const pairs = (await storage(api, 'subtensorModule', 'weights')(netuid, uid)).toJSON() as [number, number][] | null;
      return pairs ?? [];
    });
  }

  /** Signs, submits and watches one SubtensorModule call to inclusion. */
  #submit(callName: string, method: string, signer: KeyringPair, args: unknown[]): Promise<WeightsInclusion> {
    return this.connection.run(
      `SubtensorModule.${callName}`,
      async (api) => {
        const call = api.tx['subtensorModule']?.[method];
        if (!call) throw new ExtrinsicFailedError('invalid', `the chain's runtime has no SubtensorModule.${callName} call`);
        return submitAndWatch(api, call(...args), signer, this.inclusionTimeoutMs);
      },
      // The submission has its own deadline (a timeout there is a failed extrinsic, not an unreachable chain).
      { timeoutMs: this.inclusionTimeoutMs + 5_000, passThrough: (error) => error instanceof ExtrinsicFailedError },
    );
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** The stateful epoch scheduler's state of the subnet (runtimes with `SubnetEpochIndex`). */
async function readEpochState(api: ApiPromise, netuid: number): Promise<NonNullable<WeightsRules['epochState']>> {
  const read = async (item: string) => Number((await storage(api, 'subtensorModule', item)(netuid)).toString());
  const [lastEpochBlock, pendingEpochAt, subnetEpochIndex, blocksSinceLastStep] = await Promise.all([
    read('lastEpochBlock'),
    read('pendingEpochAt'),
    read('subnetEpochIndex'),
    read('blocksSinceLastStep'),
  ]);
  return { lastEpochBlock, pendingEpochAt, subnetEpochIndex, blocksSinceLastStep };
}

/** Aura chains produce a block every 2 × `Timestamp::MinimumPeriod`; Subtensor's 12 s when the runtime does not say. */
function blockTimeMsOf(api: ApiPromise): number {
  const minimumPeriod = api.consts['timestamp']?.['minimumPeriod'];
  const ms = minimumPeriod ? Number(minimumPeriod.toString()) * 2 : 0;
  return ms > 0 ? ms : DEFAULT_BLOCK_TIME_MS;
}

/**
 * `npm run -s pool-round -- --url http://127.0.0.1:8434`: one scripted pool-mining round against a running
 * pool service (see pool-round.ts). Exit 0 when every step answered as expected, 1 otherwise, 2 on bad usage.
 */
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { stackPoolMiners } from '../stack/pool-miners';
import { runCli, stackTarget } from './cli';
import { runPoolRound } from './pool-round';

const HELP = `Usage: npm run -s pool-round -- --url URL [--validator-uri URI] [--stack-miners]
  --url            pool base URL (default: $POOL_URL, else the running stack's DATA_DIR/stack.json, else http://127.0.0.1:8434)
  --validator-uri  a validator hotkey in the pool's VALIDATOR_HOTKEYS, as a secret URI or mnemonic (default: //Alice,
                   which the local stack allowlists)
  --stack-miners   the local stack's five dev miners (//Bob//pool-miner-1 and -2, both owned by //Bob;
                   //Charlie//pool-miner, //Dave//pool-miner, //Eve//pool-miner, each owned by its own key),
                   whose owners npm start records on the dev chain, each paid to its owner
Without --stack-miners, three fresh miner keys are generated for each run.`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  'validator-uri': { type: 'string', default: '//Alice' },
  'stack-miners': { type: 'boolean', default: false },
} as const;

/** Three miners no pool has seen, each with its own recipient. */
async function freshMiners(): Promise<{ miners: BtAuthSigner[]; recipients: string[] }> {
  const seed = mnemonicGenerate();
  const keys = await Promise.all(['a', 'b', 'c', 'cold-a', 'cold-b', 'cold-c'].map((name) => keypairFromUri(`${seed}//pool-round/${name}`)));
  return { miners: keys.slice(0, 3).map((pair) => new BtAuthSigner(pair)), recipients: keys.slice(3).map((pair) => pair.address) };
}

runCli('pool-round', HELP, OPTIONS, async (values) => {
  const { miners, recipients } = values['stack-miners'] ? await stackPoolMiners().then(({ signers, owners }) => ({ miners: signers, recipients: owners })) : await freshMiners();
  const validator = new BtAuthSigner(await keypairFromUri(values['validator-uri']));
  const result = await runPoolRound({ url: stackTarget({ poolUrl: values.url }).poolUrl, miners, validator, recipients });
  process.stdout.write(`pool-round: ok (algorithm ${result.algorithmId}, result ${result.resultId}, sota ${result.sotaThreshold})\n`);
});

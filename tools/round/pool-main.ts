/**
 * `npm run -s pool-round -- --url http://127.0.0.1:8434`: one scripted pool-mining round against a running
 * pool service (see pool-round.ts). Exit 0 when every step answered as expected, 1 otherwise, 2 on bad usage.
 */
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { runCli } from './cli';
import { runPoolRound } from './pool-round';

const HELP = `Usage: npm run -s pool-round -- --url URL [--validator-uri URI]
  --url            pool base URL (default: $POOL_URL or http://127.0.0.1:8434)
  --validator-uri  a validator hotkey in the pool's VALIDATOR_HOTKEYS, as a secret URI or mnemonic (default: //Alice,
                   which the local stack allowlists)
Three fresh miner keys are generated for each run.`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string', default: process.env.POOL_URL ?? 'http://127.0.0.1:8434' },
  'validator-uri': { type: 'string', default: '//Alice' },
} as const;

runCli('pool-round', HELP, OPTIONS, async (values) => {
  const seed = mnemonicGenerate();
  const keys = await Promise.all(['a', 'b', 'c', 'cold-a', 'cold-b', 'cold-c'].map((name) => keypairFromUri(`${seed}//pool-round/${name}`)));
  const [a, b, c] = keys.slice(0, 3).map((pair) => new BtAuthSigner(pair));
  const validator = new BtAuthSigner(await keypairFromUri(values['validator-uri']));
  const result = await runPoolRound({
    url: values.url.replace(/\/+$/, ''),
    miners: [a, b, c],
    validator,
    recipients: [keys[3].address, keys[4].address, keys[5].address],
  });
  process.stdout.write(`pool-round: ok (algorithm ${result.algorithmId}, result ${result.resultId}, sota ${result.sotaThreshold})\n`);
});

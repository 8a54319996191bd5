/**
 * `node -r @swc-node/register tools/round/main.ts --url http://127.0.0.1:8000 --admin-token T`:
 * one scripted round against a running coordinator (see round.ts). Exit 0 when every step answered
 * as expected, 1 otherwise, 2 on bad usage.
 */
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { requiredAdminToken, runCli } from './cli';
import { runRound } from './round';

const HELP = `Usage: node -r @swc-node/register tools/round/main.ts --url URL --admin-token TOKEN [--key-uri URI]

  --url          coordinator base URL (default: $COORDINATOR_URL or http://127.0.0.1:8000)
  --admin-token  an X-Admin-Token the coordinator accepts (default: the first of $ADMIN_TOKENS)
  --key-uri      miner hotkey as a secret URI or mnemonic (default: //Alice)`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string', default: process.env.COORDINATOR_URL ?? 'http://127.0.0.1:8000' },
  'admin-token': { type: 'string', default: process.env.ADMIN_TOKENS?.split(',')[0]?.trim() },
  'key-uri': { type: 'string', default: '//Alice' },
} as const;

runCli('round', HELP, OPTIONS, async (values) => {
  const adminToken = requiredAdminToken(values['admin-token']);
  const signer = new BtAuthSigner(await keypairFromUri(values['key-uri']));
  const result = await runRound({ url: values.url.replace(/\/+$/, ''), adminToken, signer });
  process.stdout.write(`round: ok (task ${result.taskId}, submission ${result.submissionId})\n`);
});

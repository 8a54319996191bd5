/**
 * `node -r @swc-node/register tools/round/main.ts --url http://127.0.0.1:8000 --admin-token T`:
 * one scripted round against a running coordinator (see round.ts). Exit 0 when every step answered
 * as expected and the submission is accepted (or still pending), 1 otherwise, 2 on bad usage.
 */
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { requiredAdminToken, runCli, stackTarget, UsageError } from './cli';
import { RoundNotAcceptedError, roundOutcome, runRound } from './round';

const HELP = `Usage: node -r @swc-node/register tools/round/main.ts --url URL --admin-token TOKEN [--key-uri URI]

  --url          coordinator base URL (default: $COORDINATOR_URL, else the running stack's DATA_DIR/stack.json, else http://127.0.0.1:8000)
  --admin-token  an X-Admin-Token the coordinator accepts (default: the first of $ADMIN_TOKENS, else the running stack's)
  --key-uri      miner hotkey as a secret URI or mnemonic (default: //Alice)
  --wait-seconds how long to wait for the submission's decision (default 120; 0: do not wait). The task's
                 temporary repository is removed once decided, kept (and named) when no decision came`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  'key-uri': { type: 'string', default: '//Alice' },
  'wait-seconds': { type: 'string', default: '120' },
} as const;

runCli('round', HELP, OPTIONS, async (values) => {
  const target = stackTarget({ url: values.url, adminToken: values['admin-token'] });
  const adminToken = requiredAdminToken(target.adminToken);
  const signer = new BtAuthSigner(await keypairFromUri(values['key-uri']));
  const decisionWaitSeconds = Number(values['wait-seconds']);
  if (!Number.isInteger(decisionWaitSeconds) || decisionWaitSeconds < 0) throw new UsageError('--wait-seconds must be a whole number of seconds, 0 or more');
  const result = await runRound({ url: target.coordinatorUrl, adminToken, signer, decisionWaitSeconds });
  const outcome = roundOutcome(result);
  process.stdout.write(`${outcome.line}\n`);
  if (!outcome.ok) throw new RoundNotAcceptedError(result.status);
});

/**
 * `node -r @swc-node/register tools/round/main.ts --url http://127.0.0.1:8000 --admin-token T`:
 * one scripted round against a running coordinator (see round.ts). Exit 0 when every step answered
 * as expected, 1 otherwise, 2 on bad usage.
 */
import { parseArgs } from 'node:util';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
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

function usageError(message: string): number {
  process.stderr.write(`round: ${message}\n\n${HELP}\n`);
  return 2;
}

function parseOptions(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS }).values;
}

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parseOptions>;
  try {
    values = parseOptions(argv);
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help === true) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const adminToken = values['admin-token'];
  if (adminToken === undefined || adminToken === '') return usageError('--admin-token is required');
  const signer = new BtAuthSigner(await keypairFromUri(values['key-uri']));
  const result = await runRound({ url: values.url.replace(/\/+$/, ''), adminToken, signer });
  process.stdout.write(`round: ok (task ${result.taskId}, submission ${result.submissionId})\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`round: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

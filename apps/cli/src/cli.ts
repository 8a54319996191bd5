import yargs, { type Argv } from 'yargs';
import { InvalidResponseError, MissingAdminTokenError, ServiceAnswerError, ServiceUnreachableError } from '@rcs/client';
import { adminCommands, validatorCommands } from './commands/operator';
import { minerCommands } from './commands/miner';
import { payoutCommands } from './commands/payout';
import { mcpCommand } from './commands/mcp';
import { signedRequestCommand } from './commands/signed-request';
import type { Handle } from './commands/handle';
import { CommandContext, type GlobalArgs } from './context';
import { CliRefusedError, CliUnreachableError, CliUsageError, EXIT, type ExitCode } from './errors';
import { EventStreamEndedError } from './events/event-stream';
import type { CliIo } from './output/io';
import { terminalSafeIo, terminalSafeLine } from './output/terminal-safe';
import { CLI_VERSION } from './version';

const EPILOGUE = [
  'Identity: a Bittensor wallet (--wallet-name/--wallet-hotkey/--wallet-path or BT_WALLET_NAME/BT_WALLET_HOTKEY/BT_WALLET_PATH),',
  'one hotkey file (--wallet-file or RCS_WALLET_FILE), or a development key in RCS_KEY_URI. Services: --url or RCS_COORDINATOR_URL, --pool-url or RCS_POOL_URL, else',
  '$XDG_CONFIG_HOME/rcs/config.json (~/.config/rcs/config.json). --json prints exactly the server’s JSON.',
  'Exit codes: 0 success, 1 refused by the server (its detail is printed), 2 usage, 3 unreachable.',
].join('\n');

/** Runs one command line to its end and answers the exit code; nothing here calls `process.exit`. */
export async function runCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  let failure: unknown = null;
  const handle: Handle = (body) => async (args) => {
    try {
      // For people, server text is printed without terminal controls; `--json` stays the server's bytes.
      await body(new CommandContext(args.json === true ? io : terminalSafeIo(io), env, args), args);
    } catch (error) {
      // Kept here so that yargs neither prints nor rethrows it in its own words.
      failure = error;
    }
  };
  let usage: Error | null = null;
  let output = '';
  await parser(argv, handle).parseAsync(argv, {}, (error: Error | null | undefined, _args: unknown, text: string) => {
    usage = error ?? null;
    output = text;
  });
  if (usage !== null) {
    io.stderr(`rcs: ${(usage as Error).message}\nRun 'rcs --help' (or 'rcs <command> --help') for usage.\n`);
    return EXIT.usage;
  }
  if (output !== '') io.stdout(output.endsWith('\n') ? output : `${output}\n`);
  return failure === null ? EXIT.ok : report(failure, io, argv.includes('--json'));
}

function parser(argv: string[], handle: Handle): Argv<GlobalArgs> {
  let cli: Argv<GlobalArgs> = yargs(argv)
    .scriptName('rcs')
    .usage('rcs <command> [options]\n\nThe research-competition stack from the command line: compete as a miner, claim payouts, validate, operate.')
    .option('json', { type: 'boolean', global: true, describe: "Print exactly the server's JSON (one document per line)" })
    .option('url', { type: 'string', global: true, describe: 'Coordinator URL (RCS_COORDINATOR_URL)' })
    .option('pool-url', { type: 'string', global: true, describe: 'Pool URL (RCS_POOL_URL)' })
    .option('wallet-name', { type: 'string', global: true, describe: 'Bittensor wallet name (BT_WALLET_NAME)' })
    .option('wallet-hotkey', { type: 'string', global: true, describe: 'Hotkey of the wallet (BT_WALLET_HOTKEY, default "default")' })
    .option('wallet-file', { type: 'string', global: true, describe: 'A Bittensor hotkey file, by its path (RCS_WALLET_FILE)' })
    .option('wallet-path', { type: 'string', global: true, describe: 'Wallets directory (BT_WALLET_PATH, default ~/.bittensor/wallets)' })
    .option('key-uri', { type: 'string', global: true, describe: 'Development key (//Alice); prefer RCS_KEY_URI, which stays out of shell history' }) as Argv<GlobalArgs>;
  cli = minerCommands(cli, handle);
  cli = payoutCommands(cli, handle);
  cli = signedRequestCommand(cli, handle);
  cli = mcpCommand(cli, handle);
  cli = validatorCommands(cli, handle);
  cli = adminCommands(cli, handle);
  return cli
    .demandCommand(1, 'name a command')
    .strict()
    .recommendCommands()
    .showHelpOnFail(false)
    .exitProcess(false)
    .epilogue(EPILOGUE)
    .help()
    .alias('h', 'help')
    .version(CLI_VERSION)
    .wrap(Math.min(120, yargs().terminalWidth()));
}

/** One line (or the server's detail) on stderr, the server's error JSON on stdout under `--json`; the exit code. */
function report(error: unknown, io: CliIo, json: boolean): ExitCode {
  if (error instanceof CliUsageError || error instanceof MissingAdminTokenError) {
    io.stderr(`rcs: ${terminalSafeLine(error.message)}\n`);
    return EXIT.usage;
  }
  if (error instanceof ServiceAnswerError) {
    if (json && error.body !== '') io.stdout(`${error.body.trim()}\n`);
    io.stderr(`rcs: refused (HTTP ${error.status}${error.code ? ` ${terminalSafeLine(error.code)}` : ''}): ${terminalSafeLine(error.detail)}\n`);
    return EXIT.refused;
  }
  if (error instanceof CliRefusedError || error instanceof InvalidResponseError || error instanceof EventStreamEndedError) {
    io.stderr(`rcs: ${terminalSafeLine(error.message)}\n`);
    return EXIT.refused;
  }
  if (error instanceof ServiceUnreachableError || error instanceof CliUnreachableError) {
    io.stderr(`rcs: unreachable: ${terminalSafeLine(error.message)}\n`);
    return EXIT.unreachable;
  }
  throw error;
}

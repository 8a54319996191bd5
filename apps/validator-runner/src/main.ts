import 'reflect-metadata';
import { ConfigError, createLogger, runService } from '@rcs/http';
import { AppModule } from './app.module';
import { parseCommand, USAGE } from './cli/command';
import { runOnce } from './cli/once';
import { JobFileError } from './cli/job-file';
import { replayJobFile } from './cli/replay-file';
import { requireIdentity, ValidatorRunnerConfig, validatorRunnerConfigFromProcess } from './config/config';
import { ValidatorKeyError } from '@rcs/auth';
import { detectAccelerators } from './sandbox/accelerators';

const NAME = 'validator-runner';
const command = parseCommand(process.argv.slice(2));

switch (command.kind) {
  case 'run':
    void runService(AppModule, {
      name: NAME,
      // A GPU of SANDBOX_GPUS that this host lacks is a ConfigError here: one line naming the device, exit 1.
      loadConfig: () => {
        const config = requireIdentity(validatorRunnerConfigFromProcess());
        return { ...config, accelerators: detectAccelerators(config.sandbox.gpus) };
      },
      openApi: { title: 'Validator Runner', description: 'Replays leased validator jobs in a sandbox and posts observed metrics.', version: '0.1.0' },
    });
    break;
  case 'once':
    runCommand(async (config) => {
      const logger = createLogger({ level: config.logLevel, name: NAME, format: config.logFormat });
      return (await runOnce(requireIdentity(config), logger)) ? 0 : 1;
    });
    break;
  case 'replay':
    runCommand(async (config) => {
      // stdout carries the result JSON; the logs go to stderr.
      const logger = createLogger({ level: config.logLevel, name: NAME, format: config.logFormat, fd: 2 });
      const result = await replayJobFile(config, command.jobFile, logger);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    });
    break;
  case 'help':
    process.stdout.write(`${USAGE}\n`);
    break;
  case 'usage':
    process.stderr.write(`${NAME}: ${command.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    break;
}

/** A one-shot command: exit with its code; a configuration, key or job-file problem is one line and exit 1. */
function runCommand(body: (config: ValidatorRunnerConfig) => Promise<number>): void {
  const run = async (): Promise<number> => body(validatorRunnerConfigFromProcess());
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const known = error instanceof ConfigError || error instanceof ValidatorKeyError || error instanceof JobFileError;
      process.stderr.write(`${NAME}: ${known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}

import { runCli } from './cli';
import { processEnv } from './config/settings';
import { processIo } from './output/io';

runCli(process.argv.slice(2), processIo(), processEnv()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rcs: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);

import { runCli } from '../../src/cli';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one `rcs` command line in this process with its own environment (no ambient variables) and captured output. */
export async function rcs(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), stderrIsTty: false }, env);
  return { code, stdout, stderr };
}

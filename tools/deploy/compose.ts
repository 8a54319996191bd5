import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A docker-compose project of the check: its own name, env file and compose files. */
export class ComposeProject {
  constructor(
    readonly root: string,
    readonly name: string,
    readonly envFile: string,
    readonly files: string[],
  ) {}

  private args(...rest: string[]): string[] {
    return ['-p', this.name, '--env-file', this.envFile, ...this.files.flatMap((f) => ['-f', f]), ...rest];
  }

  /** Runs docker-compose; output streamed with a prefix when `stream`, else answered. */
  async compose(rest: string[], options: { stream?: boolean; timeoutMs?: number } = {}): Promise<string> {
    if (!options.stream) {
      const { stdout } = await run('docker-compose', this.args(...rest), { cwd: this.root, timeout: options.timeoutMs ?? 600_000, maxBuffer: 64 << 20 });
      return stdout;
    }
    await new Promise<void>((resolve, reject) => {
      const child = spawn('docker-compose', this.args(...rest), { cwd: this.root, stdio: ['ignore', 'inherit', 'inherit'] });
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new ComposeError(rest.join(' '), code))));
    });
    return '';
  }

  async containerId(service: string): Promise<string> {
    return (await this.compose(['ps', '-q', service])).trim();
  }
}

export async function docker(...args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, { timeout: 120_000, maxBuffer: 64 << 20 });
  return stdout.trim();
}

export class ComposeError extends Error {
  constructor(command: string, code: number | null) {
    super(`docker-compose ${command} exited with ${code}`);
    this.name = 'ComposeError';
  }
}

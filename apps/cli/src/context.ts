import { CoordinatorRoutes, HttpClient, PoolClient, type JsonDocument } from '@rcs/client';
import type { KeyringPair } from '@polkadot/keyring/types';
import { BtAuthSigner } from '@rcs/auth';
import { readSettings, type CliSettings, type SettingFlags } from './config/settings';
import { cliHttpSettings, type CliHttpSettings } from './http/limits';
import { loadKeypair } from './identity';
import type { CliIo } from './output/io';
import { terminalSafe } from './output/terminal-safe';

/** The global options every command has (yargs parses them; see `cli.ts`). */
export interface GlobalArgs extends SettingFlags {
  json?: boolean;
}

/** What a command handler works with: its output, the settings, and the clients built from them on demand. */
export class CommandContext {
  private settingsCache: CliSettings | null = null;
  private signerCache: Promise<BtAuthSigner> | null = null;
  private pairCache: Promise<KeyringPair> | null = null;
  private loadedHotkey: string | null = null;

  constructor(
    readonly io: CliIo,
    readonly env: NodeJS.ProcessEnv,
    readonly args: GlobalArgs,
  ) {}

  get json(): boolean {
    return this.args.json === true;
  }

  /** The bounds on every request and answer (`http/limits.ts`). */
  get http(): CliHttpSettings {
    return cliHttpSettings(this.env);
  }

  get settings(): CliSettings {
    this.settingsCache ??= readSettings(this.args, this.env);
    return this.settingsCache;
  }

  signer(): Promise<BtAuthSigner> {
    this.signerCache ??= this.keypair().then((pair) => {
      const signer = new BtAuthSigner(pair);
      this.loadedHotkey = signer.hotkey;
      return signer;
    });
    return this.signerCache;
  }

  /** The identity's key pair (chain transactions sign with it). */
  keypair(): Promise<KeyringPair> {
    this.pairCache ??= loadKeypair(this.settings.identity, (warning) => this.note(`rcs: warning: ${warning}`));
    return this.pairCache;
  }

  /** The signing hotkey, once `signer()` has loaded it. */
  signerHotkey(): string {
    return this.loadedHotkey ?? '-';
  }

  /** The coordinator's routes, signing when `signed` (the identity is loaded then, and only then). */
  async coordinator(options: { signed?: boolean } = {}): Promise<CoordinatorRoutes> {
    const signer = options.signed ? await this.signer() : undefined;
    const { timeoutMs, limits } = this.http;
    return new CoordinatorRoutes(new HttpClient({ baseUrl: this.settings.coordinatorUrl, timeoutMs, limits, signer }), this.settings.adminToken);
  }

  async pool(options: { signed?: boolean } = {}): Promise<PoolClient> {
    const { timeoutMs, limits } = this.http;
    return new PoolClient({ baseUrl: this.settings.poolUrl, timeoutMs, limits }, options.signed ? await this.signer() : null);
  }

  /** `--json`: the server's text as it came, one document per line; else what `human` writes for people. */
  print<T>(document: JsonDocument<T>, human: (value: T) => string): void {
    if (this.json) this.io.stdout(`${document.text.trim()}\n`);
    else this.io.stdout(human(document.value));
  }

  /** A line for people on stderr (progress, hints); silent under `--json` only when stdout is what counts. */
  note(text: string): void {
    this.io.stderr(`${terminalSafe(text)}\n`);
  }
}

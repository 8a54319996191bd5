import { ApiPromise, WsProvider } from '@polkadot/api';
import { ChainUnavailableError, errorText } from '../errors';
import { withTimeout } from '../timeout';

/**
 * One lazily opened, shared `ApiPromise`. Auto-reconnect is off: a failed or dropped connection
 * is forgotten and the next call opens a fresh one, so a dead endpoint costs each caller at
 * most `timeoutMs` instead of hanging it on the provider's endless retries.
 */
export class PolkadotConnection {
  #api: Promise<ApiPromise> | null = null;

  constructor(
    readonly wsUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Runs `call` on a connected api; any failure, or no answer within the timeout, is a
   * `ChainUnavailableError`. `timeoutMs` overrides the bound for calls that wait for blocks.
   */
  async run<T>(what: string, call: (api: ApiPromise) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    const work = this.#connected().then(call);
    try {
      return await withTimeout(work, timeoutMs, () => new ChainUnavailableError(`${what}: no answer from ${this.wsUrl} within ${timeoutMs} ms`));
    } catch (error) {
      if (error instanceof ChainUnavailableError) throw error;
      throw new ChainUnavailableError(`${what} on ${this.wsUrl} failed: ${errorText(error)}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    const pending = this.#api;
    this.#api = null;
    const api = await pending?.catch(() => null);
    await api?.disconnect();
  }

  #connected(): Promise<ApiPromise> {
    if (!this.#api) {
      const connecting = this.#connect();
      const forget = (): void => {
        if (this.#api === connecting) this.#api = null;
      };
      this.#api = connecting;
      void connecting.then((api) => api.once('disconnected', forget), forget);
    }
    return this.#api;
  }

  async #connect(): Promise<ApiPromise> {
    const provider = new WsProvider(this.wsUrl, false, {}, this.timeoutMs);
    const api = new ApiPromise({ provider, noInitWarn: true });
    // `connect()` only opens the socket: a refusal or a drop arrives later as a provider event.
    const lost = new Promise<never>((_, reject) => {
      provider.on('error', (error: unknown) => reject(new ChainUnavailableError(`cannot connect to ${this.wsUrl}: ${errorText(error)}`)));
      provider.on('disconnected', () => reject(new ChainUnavailableError(`${this.wsUrl} closed the connection`)));
    });
    lost.catch(() => undefined); // a drop after a successful start is handled by `#connected`
    try {
      await provider.connect();
      await withTimeout(Promise.race([api.isReadyOrError, lost]), this.timeoutMs, () => new ChainUnavailableError(`cannot connect to ${this.wsUrl} within ${this.timeoutMs} ms`));
      return api;
    } catch (error) {
      await api.disconnect().catch(() => undefined);
      throw error instanceof ChainUnavailableError ? error : new ChainUnavailableError(`cannot connect to ${this.wsUrl}: ${errorText(error)}`, { cause: error });
    }
  }
}

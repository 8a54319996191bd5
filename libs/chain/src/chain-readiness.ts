import { errorText } from './errors';
import type { SubtensorPort } from './ports/subtensor.port';

export interface ChainReadiness {
  ok: boolean;
  error?: string;
  latest_block?: number;
}

/** Whether the chain answers its latest block within `timeoutMs`, for /readyz. */
export async function chainReady(subtensor: Pick<SubtensorPort, 'latestBlock'>, timeoutMs = 2000): Promise<ChainReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ChainReadiness>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const read = subtensor.latestBlock().then(
    (block): ChainReadiness => ({ ok: true, latest_block: block }),
    (error: unknown): ChainReadiness => ({ ok: false, error: errorText(error) }),
  );
  try {
    return await Promise.race([read, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

import type { PoolServiceConfig } from '../config/config';

/** Whether this process publishes epochs on chain (a publisher key is configured). */
export function publicationEnabled(config: PoolServiceConfig): boolean {
  return config.payout.publisherUri !== null;
}

/**
 * The public URL of an epoch's allocation document, published on chain with its root; it carries the
 * document's SHA-256 (`?sha256=<hex>`), so whoever reads the contract can check what the URL serves (DECISIONS §16).
 */
export function allocationUri(config: PoolServiceConfig, epoch: number, allocationSha256: string): string {
  return `${config.payout.publicUrl}${config.payout.claimsMountPrefix}/epoch/${epoch}/allocation?sha256=${allocationSha256}`;
}

import type { PoolServiceConfig } from '../config/config';

/** Whether this process publishes epochs on chain (a publisher key is configured). */
export function publicationEnabled(config: PoolServiceConfig): boolean {
  return config.payout.publisherUri !== null;
}

/** The public URL of an epoch's allocation document, published on chain with its root. */
export function allocationUri(config: PoolServiceConfig, epoch: number): string {
  return `${config.payout.publicUrl}${config.payout.claimsMountPrefix}/epoch/${epoch}/allocation`;
}

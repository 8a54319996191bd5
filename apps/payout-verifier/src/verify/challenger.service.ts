import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { KeyringPair } from '@polkadot/keyring/types';
import { CLAIM_CONTRACT_PORT, ClaimContractError, errorText, type ClaimContractPort, type HexHash } from '@rcs/chain';
import { DataSource } from 'typeorm';
import { VerdictsRepository } from '../verdicts/verdicts.module';
import { VERIFIER_KEYPAIR } from './tokens';

/**
 * `challenge_epoch(epoch, evidence_hash)` for each mismatch, once, watched to inclusion (DECISIONS §16).
 * Before sending it reads the epoch: one already disputed (a challenge whose receipt a crash lost, or
 * another challenger's) is recorded as included and never sent again. A failed send stays pending and
 * is retried by the next pass.
 */
@Injectable()
export class ChallengerService {
  private readonly logger = new Logger('Challenger');

  constructor(
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(VERIFIER_KEYPAIR) private readonly keypair: KeyringPair,
    private readonly verdicts: VerdictsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Sends every pending challenge; returns how many were included by this call. */
  async challengePending(): Promise<number> {
    const manager = this.dataSource.manager;
    let included = 0;
    for (const verdict of await this.verdicts.pendingChallenges(manager)) {
      const epoch = verdict.epoch;
      const hash = verdict.evidenceHash as HexHash;
      try {
        const info = await this.contract.epochInfo(epoch);
        if (info?.disputed) {
          await this.verdicts.markChallengeIncluded(manager, epoch, { block: null, txHash: null });
          this.logger.warn(`Epoch ${epoch}: already disputed on the contract; not challenged again`);
          continue;
        }
        const receipt = await this.contract.challengeEpoch(epoch, hash, this.keypair);
        if (await this.verdicts.markChallengeIncluded(manager, epoch, { block: receipt.block, txHash: receipt.txHash })) included += 1;
        this.logger.warn(`Epoch ${epoch}: challenged at block ${receipt.block} (check ${verdict.check}, evidence ${hash})`);
      } catch (error) {
        if (error instanceof ClaimContractError && error.code === 'already_disputed') {
          await this.verdicts.markChallengeIncluded(manager, epoch, { block: null, txHash: null });
          continue;
        }
        const message = error instanceof ClaimContractError ? `${error.code}: ${error.message}` : errorText(error);
        this.logger.error(`Epoch ${epoch}: challenge failed, retried next pass: ${message}`);
        await this.verdicts.recordChallengeFailure(manager, epoch, message);
      }
    }
    return included;
  }
}

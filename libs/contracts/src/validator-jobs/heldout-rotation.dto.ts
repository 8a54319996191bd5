import { ApiProperty } from '@nestjs/swagger';

/**
 * A validator job's held-out rotation (DECISIONS §15), fixed at its first lease and kept by re-leases: every
 * validator leasing jobs of a task in the same slot gets the same pair, so their benchmarks score the same
 * documents. The runner exports them as AUTORESEARCH_HELDOUT_SYNC_SLOT and AUTORESEARCH_HELDOUT_SYNC_NUMBER.
 */
export class HeldoutRotationDto {
  @ApiProperty({ description: "⌊lease time / the task's rotation period⌋.", type: 'integer', minimum: 0 })
  slot!: number;

  @ApiProperty({ description: 'Validator-private: the first 16 bytes, hex, of HMAC-SHA256(secret, `task_id:slot`).', pattern: '^[0-9a-f]{32}$' })
  number!: string;
}

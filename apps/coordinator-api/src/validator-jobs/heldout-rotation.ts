import { createHmac } from 'node:crypto';

/** A job's held-out rotation pair (DECISIONS §15). */
export interface RotationPair {
  slot: number;
  number: string;
}

/** ⌊lease time / the task's rotation period⌋. */
export function rotationSlot(leaseEpochSeconds: number, periodSeconds: number): number {
  return Math.floor(leaseEpochSeconds / periodSeconds);
}

/** The first 16 bytes, hex, of HMAC-SHA256(secret, `task_id:slot`): the same for every validator of the task's slot, unguessable without the secret. */
export function rotationNumber(secret: string, taskId: string, slot: number): string {
  return createHmac('sha256', secret).update(`${taskId}:${slot}`).digest().subarray(0, 16).toString('hex');
}

/** The pair a job's first lease fixes: its slot at `leaseEpochSeconds` in the task's period, and that slot's number. */
export function rotationAt(secret: string, taskId: string, periodSeconds: number, leaseEpochSeconds: number): RotationPair {
  const slot = rotationSlot(leaseEpochSeconds, periodSeconds);
  return { slot, number: rotationNumber(secret, taskId, slot) };
}

import { createHash, randomBytes } from 'node:crypto';
import type { BtAuthSigner } from '@rcs/auth';
import { callService, type ArtifactHost } from '@rcs/testing';

/**
 * A miner's claim on `taskId` and its artifact submission of the packed model `name`, served by `host`, with claimed
 * metrics the replay ignores: the submission's id. `fields` adds submission fields or replaces them (an idea, a SHA-256).
 */
export async function submitPack(
  coordinatorUrl: string,
  signer: BtAuthSigner,
  host: ArtifactHost,
  pack: { taskId: string; baseRef: string; name: string; bytes: Buffer },
  fields: Record<string, unknown> = {},
): Promise<string> {
  const claim = await callService(coordinatorUrl, 'POST', `/api/v1/tasks/${pack.taskId}/claim`, { signer }, { claim_description: `pack ${pack.name}` });
  expect(claim.status).toBe(201);
  const submission = await callService(coordinatorUrl, 'POST', '/api/v1/submissions', { signer }, {
    claim_id: (claim.json as Record<string, unknown>).id,
    base_ref: pack.baseRef,
    patch: '',
    summary: `packed model ${pack.name}`,
    claimed_metrics: { heldout_ppl: 1.01, compressed_bytes: 1 },
    artifact_uri: host.put(`${pack.name}-${randomBytes(3).toString('hex')}.npz`, pack.bytes),
    artifact_sha256: createHash('sha256').update(pack.bytes).digest('hex'),
    artifact_size_bytes: pack.bytes.length,
    ...fields,
  });
  expect(submission.status).toBe(201);
  return (submission.json as Record<string, unknown>).id as string;
}

import type { BtAuthSigner } from '@rcs/auth';

/** Who a test call speaks as: the admin token, a miner's or validator's BT-AUTH signer, or nobody. */
export type CallAuth = { admin: string } | { signer: BtAuthSigner } | null;

/** One JSON call of a service as its clients make it (admin header or BT-AUTH headers over the exact body); the answer's status and parsed body. */
export async function callService(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  auth: CallAuth,
  body?: Record<string, unknown>,
): Promise<{ status: number; json: unknown }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (auth !== null && 'admin' in auth) headers['X-Admin-Token'] = auth.admin;
  if (auth !== null && 'signer' in auth) Object.assign(headers, auth.signer.signRequest({ method, url: path, body: text }));
  if (text !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: text });
  const raw = await response.text();
  return { status: response.status, json: raw === '' ? null : (JSON.parse(raw) as unknown) };
}

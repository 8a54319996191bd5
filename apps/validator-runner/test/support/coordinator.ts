import { BtAuthSigner } from '@rcs/auth';

export type Json = Record<string, unknown>;

/** One JSON request; admin-token or BT-AUTH-V1 signed (the exact text sent is the text signed). */
export async function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  auth: { admin: string } | { signer: BtAuthSigner } | null,
  body?: Json,
): Promise<{ status: number; json: unknown }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (auth !== null && 'admin' in auth) headers['X-Admin-Token'] = auth.admin;
  if (auth !== null && 'signer' in auth) Object.assign(headers, auth.signer.signRequest({ method, url: path, body: text }));
  if (text !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: text });
  const raw = await response.text();
  return { status: response.status, json: raw === '' ? null : (JSON.parse(raw) as unknown) };
}

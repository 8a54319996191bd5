/** A failed read: the service's error code and message (DECISIONS §1 shape) or why it could not be reached. */
export class ServiceError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** Reads the message of a §1 error body: `{detail: {error, message}}`, or the 422 list `{detail: [{msg, loc}]}`. */
export function errorOf(status: number, text: string): ServiceError {
  try {
    const body: unknown = JSON.parse(text);
    const detail = body !== null && typeof body === 'object' && 'detail' in body ? body.detail : null;
    if (detail !== null && typeof detail === 'object' && !Array.isArray(detail) && 'error' in detail && 'message' in detail) {
      return new ServiceError(status, String(detail.error), String(detail.message));
    }
    if (Array.isArray(detail)) {
      return new ServiceError(status, 'validation_error', detail.map((item: { msg?: unknown }) => String(item.msg ?? '')).join('; '));
    }
  } catch {
    // not JSON: the status says enough
  }
  return new ServiceError(status, `http_${status}`, `HTTP ${status}`);
}

/** The URL `getJson` reads: `baseUrl` (trailing slashes dropped) + `path`. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** GETs JSON from `baseUrl + path`; any non-2xx is a ServiceError with the service's own words. */
export function getJson<T>(baseUrl: string, path: string, options: { allow?: number[] } = {}): Promise<T> {
  const url = joinUrl(baseUrl, path);
  return readJson<T>(url, fetch(url, { headers: { accept: 'application/json' } }), options);
}

/** Reads the JSON of a GET already sent to `url` (by `getJson`, or by index.html's early read) the same way. */
export async function readJson<T>(url: string, sent: Promise<Response>, options: { allow?: number[] } = {}): Promise<T> {
  let response: Response;
  try {
    response = await sent;
  } catch (error) {
    throw new ServiceError(null, 'unreachable', `${url} did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  const text = await response.text();
  if (!response.ok && !(options.allow ?? []).includes(response.status)) throw errorOf(response.status, text);
  return JSON.parse(text) as T;
}

/** GETs a text document (Markdown) from `baseUrl + path`; any non-2xx is a ServiceError. */
export async function getText(baseUrl: string, path: string): Promise<string> {
  const url = joinUrl(baseUrl, path);
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'text/markdown, text/plain' } });
  } catch (error) {
    throw new ServiceError(null, 'unreachable', `${url} did not answer (${error instanceof Error ? error.message : String(error)})`);
  }
  const text = await response.text();
  if (!response.ok) throw errorOf(response.status, text);
  return text;
}

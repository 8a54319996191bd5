import type { DocumentBuilder } from '@nestjs/swagger';
import { ADMIN_TOKEN_HEADER, HOTKEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../headers';

/** OpenAPI security scheme names, one per header; a signed route requires the three together. */
export const SIGNED_SECURITY = { hotkey: 'bt-hotkey', timestamp: 'bt-timestamp', signature: 'bt-signature' } as const;
export const ADMIN_SECURITY = 'admin-token';

const SCHEMES: [name: string, header: string, description: string][] = [
  [SIGNED_SECURITY.hotkey, HOTKEY_HEADER, 'SS58 hotkey (BT-AUTH-V1); 401 missing_signature when absent'],
  [SIGNED_SECURITY.timestamp, TIMESTAMP_HEADER, 'Unix seconds; 401 stale_timestamp outside the allowed skew'],
  [SIGNED_SECURITY.signature, SIGNATURE_HEADER, 'sr25519 signature, hex; 401 invalid_signature or replayed_signature'],
  [ADMIN_SECURITY, ADMIN_TOKEN_HEADER, 'Operator token; 401 invalid_admin_token, 503 admin_unconfigured'],
];

/** Registers the header security schemes that `@Signed()`, `@Admin()` and friends refer to. */
export function addAuthSecuritySchemes(builder: DocumentBuilder): DocumentBuilder {
  return SCHEMES.reduce(
    (b, [name, header, description]) => b.addApiKey({ type: 'apiKey', in: 'header', name: header, description }, name),
    builder,
  );
}

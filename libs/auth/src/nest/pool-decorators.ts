import { UseGuards, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiSecurity, type DocumentBuilder } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { POOL_KEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../headers';
import { AuthClass, authClassMetadata } from './auth-class';
import { PoolValidatorGuard, PoolWalletGuard, RecipientUpdateGuard } from './pool-guards';

/** OpenAPI security scheme names of the pool headers. */
export const POOL_SECURITY = { key: 'pool-key', timestamp: 'pool-timestamp', signature: 'pool-signature' } as const;

function poolDocs(message: string) {
  return [
    ApiHeader({ name: POOL_KEY_HEADER, required: false, description: 'SS58 hotkey of the pool wallet (any network prefix)' }),
    ApiHeader({ name: TIMESTAMP_HEADER, required: false, description: 'Unix seconds within the allowed skew (legacy: `auth:{seconds}`)' }),
    ApiHeader({ name: SIGNATURE_HEADER, required: false, description: `sr25519 signature, hex, of ${message}` }),
    ApiSecurity({ [POOL_SECURITY.key]: [], [POOL_SECURITY.timestamp]: [], [POOL_SECURITY.signature]: [] }),
  ];
}

/** Pool-wallet signed: the message is `auth:{X-Timestamp}` (compat). */
export function PoolSigned() {
  return applyDecorators(authClassMetadata(AuthClass.PoolSigned), UseGuards(PoolWalletGuard), ...poolDocs('`auth:{X-Timestamp}`'));
}

/** Pool-wallet signed by a hotkey of `VALIDATOR_HOTKEYS`. */
export function PoolValidator() {
  return applyDecorators(authClassMetadata(AuthClass.PoolValidator), UseGuards(PoolValidatorGuard), ...poolDocs('`auth:{X-Timestamp}`'));
}

/** Recipient-update signed: the message is `recipient_coldkey:update:{X-Timestamp}:{coldkey as in the body}`. */
export function RecipientUpdateSigned() {
  return applyDecorators(authClassMetadata(AuthClass.RecipientUpdate), UseGuards(RecipientUpdateGuard), ...poolDocs('`recipient_coldkey:update:{X-Timestamp}:{recipient_coldkey}`'));
}

/** The canonical recipient coldkey `@RecipientUpdateSigned()` verified. */
export const RecipientColdkey = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const coldkey = context.switchToHttp().getRequest<FastifyRequest>().recipientColdkey;
  if (coldkey === undefined) throw new RecipientColdkeyMissingError();
  return coldkey;
});

export class RecipientColdkeyMissingError extends Error {
  constructor() {
    super('@RecipientColdkey() needs @RecipientUpdateSigned() on the route');
    this.name = 'RecipientColdkeyMissingError';
  }
}

/** Registers the pool header security schemes the pool decorators refer to. */
export function addPoolAuthSecuritySchemes(builder: DocumentBuilder): DocumentBuilder {
  return builder
    .addApiKey({ type: 'apiKey', in: 'header', name: POOL_KEY_HEADER, description: 'Pool wallet SS58 hotkey; 401 missing_signature when absent' }, POOL_SECURITY.key)
    .addApiKey({ type: 'apiKey', in: 'header', name: TIMESTAMP_HEADER, description: 'Unix seconds; 401 stale_timestamp outside the skew' }, POOL_SECURITY.timestamp)
    .addApiKey({ type: 'apiKey', in: 'header', name: SIGNATURE_HEADER, description: 'sr25519 hex; 401 invalid_signature or replayed_signature' }, POOL_SECURITY.signature);
}

import { applyDecorators, Controller, createParamDecorator, ExecutionContext, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AuthPrincipalMissingError, CurrentAuth, HotkeyPrincipal, PoolSigned, Public, RecipientColdkeyMissingError, RecipientUpdateSigned } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ColdkeyDeclaredDto, ErrorCode, LeaderboardEntryDto, LeaderboardQueryDto, MinerStatsDto, PoolMinerDto, RecipientDto, RecipientHistoryDto, RecipientUpdatedDto, RecipientUpdateDto, SIGNATURE_ERRORS } from '@rcs/contracts';
import { iso } from '../common/iso';
import { IgnoredPoolBody, PoolBody, PoolQuery } from '../common/pool-model.pipe';
import type { SignedColdkey } from './miners.repository';
import { MinersService } from './miners.service';


/** Recipient-update signatures cover the coldkey too. */
const RECIPIENT_SIGNATURE_ERRORS = [
  ErrorCode.MissingSignature,
  [ErrorCode.InvalidSignature, '(the signature does not cover `recipient_coldkey:update:{ts}:{coldkey}` for this X-Key)'],
  ErrorCode.StaleTimestamp,
  ErrorCode.ReplayedSignature,
] as const;
const RECIPIENT_INVALID = '`recipient_coldkey` (or `coldkey_address`) missing or not SS58.';

/** The three routes that govern a miner's recipient (DECISIONS §11) share auth, body, answer and errors; pool POSTs answer 200. */
function RecipientUpdateRoute(summary: string): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    RecipientUpdateSigned(),
    ApiOperation({ summary, description: 'Recipient-update signed; body `recipient_coldkey` or legacy `coldkey_address`.' }),
    ApiOkResponse({ type: RecipientUpdatedDto, description: 'Stored; the next published epoch pays it.' }),
    ApiErrors(...RECIPIENT_SIGNATURE_ERRORS),
    ApiValidationFailure(RECIPIENT_INVALID),
  );
}

/** Who signed a recipient update and how: the hotkey, the coldkey it covers and the signature headers. */
interface RecipientSigner {
  hotkey: string;
  coldkey: string;
  timestamp: string;
  signature: string;
}

/** The signer of a route behind @RecipientUpdateSigned(), which has checked the signature and set the principal and coldkey. */
const RecipientSignature = createParamDecorator((_data: unknown, context: ExecutionContext): RecipientSigner => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const miner = request.authPrincipal as HotkeyPrincipal | undefined;
  if (miner === undefined) throw new AuthPrincipalMissingError();
  if (request.recipientColdkey === undefined) throw new RecipientColdkeyMissingError();
  const header = (name: string): string => request.headers[name] as string;
  return { hotkey: miner.hotkey, coldkey: request.recipientColdkey, timestamp: header('x-timestamp'), signature: header('x-signature') };
});

/** The signed coldkey change as the history keeps it. */
function signedChange(route: string, signer: RecipientSigner, body: RecipientUpdateDto): SignedColdkey {
  const { hotkey, coldkey, timestamp, signature } = signer;
  return { hotkey, coldkey, signedColdkey: body.recipient_coldkey ?? body.coldkey_address ?? coldkey, signedTimestamp: timestamp, signature, route };
}

/** Miners and recipient coldkeys (spec 001 "Root, disclaimer, miners"; DECISIONS.md §11). */
@ApiTags('miners')
@Controller('api/v1/miners')
export class MinersController {
  constructor(private readonly miners: MinersService) {}

  @Post('register')
  @HttpCode(200)
  @PoolSigned()
  @ApiOperation({ summary: 'Register or refresh the signing miner', description: 'The body is ignored.' })
  @ApiOkResponse({ type: PoolMinerDto, description: 'The miner.' })
  @ApiErrors(...SIGNATURE_ERRORS)
  register(@CurrentAuth() miner: HotkeyPrincipal, @IgnoredPoolBody() _body: undefined): Promise<PoolMinerDto> {
    return this.miners.register(miner.hotkey);
  }

  @Get('stats')
  @PoolSigned()
  @ApiOperation({ summary: 'Stats of the signing miner and the pool' })
  @ApiOkResponse({ type: MinerStatsDto, description: 'Miner and pool summary.' })
  @ApiErrors(...SIGNATURE_ERRORS)
  stats(@CurrentAuth() miner: HotkeyPrincipal): Promise<MinerStatsDto> {
    return this.miners.stats(miner.hotkey);
  }

  @Get('leaderboard')
  @Public()
  @ApiErrors()
  @ApiOperation({ summary: 'Top miners by reputation (public)', description: 'By decayed reputation, then hotkey.' })
  @ApiOkResponse({ type: [LeaderboardEntryDto], description: 'Ranked miners.' })
  @ApiValidationFailure('limit out of 1..1000.')
  leaderboard(@PoolQuery(LeaderboardQueryDto) query: LeaderboardQueryDto): Promise<LeaderboardEntryDto[]> {
    return this.miners.leaderboard(query.limit);
  }

  @Get(':miner_hotkey/standing')
  @Public()
  @ApiOperation({
    summary: "One miner's standing (public)",
    description: 'Its leaderboard entry wherever it ranks: decayed reputation, evaluations, evolutions and its place by reputation, then hotkey. Any SS58 spelling of the hotkey.',
  })
  @ApiOkResponse({ type: LeaderboardEntryDto, description: 'The miner as the leaderboard would list it.' })
  @ApiErrors([ErrorCode.HotkeyNotFound, '(a hotkey the pool has never seen, or no SS58 address)'])
  standing(@Param('miner_hotkey') hotkey: string): Promise<LeaderboardEntryDto> {
    return this.miners.standing(hotkey);
  }

  @Put('recipient-coldkey')
  @RecipientUpdateRoute('Update the payout recipient')
  put(@RecipientSignature() signer: RecipientSigner, @PoolBody(RecipientUpdateDto) body: RecipientUpdateDto): Promise<RecipientUpdatedDto> {
    return this.update(signedChange('PUT /api/v1/miners/recipient-coldkey', signer, body));
  }

  @Post('recipient-coldkey')
  @RecipientUpdateRoute('Update the payout recipient (compatibility)')
  post(@RecipientSignature() signer: RecipientSigner, @PoolBody(RecipientUpdateDto) body: RecipientUpdateDto): Promise<RecipientUpdatedDto> {
    return this.update(signedChange('POST /api/v1/miners/recipient-coldkey', signer, body));
  }

  @Post('coldkey_address/update')
  @RecipientUpdateRoute('Update the payout recipient (compatibility)')
  legacy(@RecipientSignature() signer: RecipientSigner, @PoolBody(RecipientUpdateDto) body: RecipientUpdateDto): Promise<RecipientUpdatedDto> {
    return this.update(signedChange('POST /api/v1/miners/coldkey_address/update', signer, body));
  }

  @Get('recipient-coldkey')
  @PoolSigned()
  @ApiOperation({ summary: 'The signing miner’s recipient' })
  @ApiOkResponse({ type: RecipientDto, description: 'Stored and declared coldkeys.' })
  @ApiErrors(...SIGNATURE_ERRORS)
  own(@CurrentAuth() miner: HotkeyPrincipal): Promise<RecipientDto> {
    return this.miners.ownRecipient(miner.hotkey);
  }

  @Get('recipient-coldkey/:miner_hotkey/history')
  @Public()
  @ApiOperation({ summary: 'Recipient history by hotkey (public)', description: 'Every recipient change with the signature that authorised it, oldest first (DECISIONS §16). Any SS58 spelling of the hotkey.' })
  @ApiOkResponse({ type: RecipientHistoryDto, description: 'The signed records.' })
  @ApiErrors(ErrorCode.HotkeyNotFound)
  history(@Param('miner_hotkey') hotkey: string): Promise<RecipientHistoryDto> {
    return this.miners.recipientHistory(hotkey);
  }

  @Get('recipient-coldkey/:miner_hotkey')
  @Public()
  @ApiOperation({ summary: 'Recipient lookup by hotkey (public)', description: 'Any SS58 spelling of the hotkey.' })
  @ApiOkResponse({ type: RecipientDto, description: 'Stored and declared coldkeys.' })
  @ApiErrors(ErrorCode.HotkeyNotFound)
  lookup(@Param('miner_hotkey') hotkey: string): Promise<RecipientDto> {
    return this.miners.recipient(hotkey);
  }

  private async update(change: SignedColdkey): Promise<RecipientUpdatedDto> {
    const miner = await this.miners.updateRecipient(change);
    return { status: 'updated', hotkey: miner.hotkey, recipient_coldkey: miner.recipientColdkey ?? change.coldkey, updated_at: iso(miner.recipientUpdatedAt ?? new Date()) };
  }
}

/** `POST /coldkey_address/update` at the root (compat): records the declaration only. */
@ApiTags('miners')
@Controller()
export class RootColdkeyController {
  constructor(private readonly miners: MinersService) {}

  @Post('coldkey_address/update')
  @HttpCode(200)
  @RecipientUpdateSigned()
  @ApiOperation({
    summary: 'Declare a coldkey (root compatibility route)',
    description: 'Records `declared_coldkey`: it never overrides the recipient stored through the governing routes, but a miner without one is paid to it.',
  })
  @ApiOkResponse({ type: ColdkeyDeclaredDto, description: '`{status: "success", coldkey_address}` (compat).' })
  @ApiErrors(...RECIPIENT_SIGNATURE_ERRORS)
  @ApiValidationFailure(RECIPIENT_INVALID)
  async declare(@RecipientSignature() signer: RecipientSigner, @PoolBody(RecipientUpdateDto) body: RecipientUpdateDto): Promise<ColdkeyDeclaredDto> {
    const stored = await this.miners.declareColdkey(signedChange('POST /coldkey_address/update', signer, body));
    return { status: 'success', coldkey_address: stored.declaredColdkey ?? signer.coldkey };
  }
}

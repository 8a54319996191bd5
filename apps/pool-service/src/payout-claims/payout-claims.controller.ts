import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@rcs/auth';
import { ApiErrors, ClaimedCumulativeDto, ClaimEpochDto, ClaimEpochListDto, ClaimLedgerDto, ClaimPackageDto, ClaimsHealthDto, RetainedSnapshotsDto, SimulatedClaimDto, SimulatedClaimRequestDto, ErrorCode } from '@rcs/contracts';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { publicationEnabled } from '../epochs/epochs.module';
import { PayoutClaimsService } from './payout-claims.service';

/** Public claim routes of spec 001, mounted at `CLAIMS_MOUNT_PREFIX`. */
@ApiTags('claims')
@Controller()
export class PayoutClaimsController {
  constructor(
    private readonly claims: PayoutClaimsService,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  @Get('health')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: ClaimsHealthDto })
  async health(): Promise<ClaimsHealthDto> {
    const list = await this.claims.list();
    return {
      status: 'ok',
      latest_epoch: list.epochs[0] ?? null,
      default_epoch: list.default_epoch,
      publication_enabled: publicationEnabled(this.config),
      simulation: this.claims.simulation,
    };
  }

  @Get('epochs')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: ClaimEpochListDto })
  list(): Promise<ClaimEpochListDto> {
    return this.claims.list();
  }

  @Get('retained-snapshots')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: RetainedSnapshotsDto, description: 'The reward snapshots named by every epoch that still holds unclaimed value; the coordinator (POOL_URL) never prunes these.' })
  retainedSnapshots(): Promise<RetainedSnapshotsDto> {
    return this.claims.retainedSnapshots();
  }

  @Get('epoch')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound)
  @ApiOkResponse({ type: ClaimEpochDto })
  defaultEpoch(): Promise<ClaimEpochDto> {
    return this.claims.metadata(null);
  }

  @Get('epoch/proof/:hotkey')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound, ErrorCode.HotkeyNotInEpoch)
  @ApiOkResponse({ type: ClaimPackageDto })
  proof(@Param('hotkey') hotkey: string): Promise<ClaimPackageDto> {
    return this.claims.package(null, hotkey);
  }

  @Get('epoch/claim/:hotkey')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound, ErrorCode.HotkeyNotInEpoch)
  @ApiOkResponse({ type: ClaimPackageDto, description: 'Alias of `epoch/proof/{hotkey}`.' })
  proofAlias(@Param('hotkey') hotkey: string): Promise<ClaimPackageDto> {
    return this.claims.package(null, hotkey);
  }

  @Get('epoch/:epoch')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound)
  @ApiOkResponse({ type: ClaimEpochDto })
  epoch(@Param('epoch') epoch: string): Promise<ClaimEpochDto> {
    return this.claims.metadata(epoch);
  }

  @Get('epoch/:epoch/proof/:hotkey')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound, ErrorCode.HotkeyNotInEpoch)
  @ApiOkResponse({ type: ClaimPackageDto })
  epochProof(@Param('epoch') epoch: string, @Param('hotkey') hotkey: string): Promise<ClaimPackageDto> {
    return this.claims.package(epoch, hotkey);
  }

  @Get('epoch/:epoch/claim/:hotkey')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound, ErrorCode.HotkeyNotInEpoch)
  @ApiOkResponse({ type: ClaimPackageDto, description: 'Alias of `epoch/{epoch}/proof/{hotkey}`.' })
  epochProofAlias(@Param('epoch') epoch: string, @Param('hotkey') hotkey: string): Promise<ClaimPackageDto> {
    return this.claims.package(epoch, hotkey);
  }

  @Get('epoch/:epoch/allocation')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound)
  @Header('content-type', 'application/json')
  @ApiOkResponse({ description: 'The allocation document (receipts), byte for byte as its SHA-256 in the epoch metadata.' })
  allocation(@Param('epoch') epoch: string): Promise<string> {
    return this.claims.allocation(epoch);
  }
}

/** Registered only with `CLAIM_SIMULATION=true`. */
@ApiTags('claims')
@Controller()
export class PayoutClaimSimulationController {
  constructor(private readonly claims: PayoutClaimsService) {}

  @Post('epoch/claim')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound, ErrorCode.HotkeyNotInEpoch, ErrorCode.EpochNotClaimable, ErrorCode.ClaimsNotOpen, ErrorCode.ClaimsLocked, ErrorCode.NothingToClaim, [ErrorCode.ClaimRefused, '(with `contract_message` and the contract\'s `refusal`)'], ErrorCode.ChainUnavailable)
  @HttpCode(200)
  @ApiOkResponse({ type: SimulatedClaimDto })
  claim(@Body() body: SimulatedClaimRequestDto): Promise<SimulatedClaimDto> {
    return this.claims.claim(null, body);
  }

  @Post('epoch/:epoch/claim')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound, ErrorCode.HotkeyNotInEpoch, ErrorCode.EpochNotClaimable, ErrorCode.ClaimsNotOpen, ErrorCode.ClaimsLocked, ErrorCode.NothingToClaim, [ErrorCode.ClaimRefused, '(with `contract_message` and the contract\'s `refusal`)'], ErrorCode.ChainUnavailable)
  @HttpCode(200)
  @ApiOkResponse({ type: SimulatedClaimDto })
  claimEpoch(@Param('epoch') epoch: string, @Body() body: SimulatedClaimRequestDto): Promise<SimulatedClaimDto> {
    return this.claims.claim(epoch, body);
  }

  @Get('claimed/:hotkey')
  @Public()
  @ApiErrors([ErrorCode.HotkeyNotFound, '(no SS58 address)'], ErrorCode.ChainUnavailable)
  @ApiOkResponse({ type: ClaimedCumulativeDto, description: "The claim contract's `claimed_cumulative` of the hotkey: what it has been paid so far (any SS58 spelling)." })
  claimed(@Param('hotkey') hotkey: string): Promise<ClaimedCumulativeDto> {
    return this.claims.claimedCumulative(hotkey);
  }

  @Get('ledger')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: ClaimLedgerDto })
  ledger(): Promise<ClaimLedgerDto> {
    return this.claims.ledger(null);
  }

  @Get('ledger/:epoch')
  @Public()
  @ApiErrors(ErrorCode.EpochNotFound)
  @ApiOkResponse({ type: ClaimLedgerDto })
  ledgerOf(@Param('epoch') epoch: string): Promise<ClaimLedgerDto> {
    return this.claims.ledger(epoch);
  }
}

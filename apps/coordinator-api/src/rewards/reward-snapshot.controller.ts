import { Public } from '@rcs/auth';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiError, ApiErrors, ErrorCode, RewardSnapshotDto } from '@rcs/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../common/json-answer';
import { RewardSnapshotService } from './reward-snapshot.service';

/** Names the time the served snapshot was generated (the body's `generated_at`), readable without parsing it. */
export const SNAPSHOT_GENERATED_AT_HEADER = 'X-Snapshot-Generated-At';

@ApiTags('reward-snapshot')
@Controller('api/v1/reward-snapshot')
export class RewardSnapshotController {
  constructor(private readonly snapshots: RewardSnapshotService) {}

  @Get()
  @Public()
  @ApiErrors()
  @ApiProduces('application/json')
  @ApiOperation({
    summary: 'The reward snapshot',
    description:
      'Public; read by the weight setter and the payout service. Per competition (task) its resolved reward policy and the ' +
      'decayed scores of its miners (DECISIONS.md §7). Served from the cache that a queued job rebuilds after every decision, task state change ' +
      'and policy change; the same data and `generated_at` always give the same bytes.',
  })
  @ApiOkResponse({
    type: RewardSnapshotDto,
    description: 'The cached snapshot.',
    headers: {
      [SNAPSHOT_GENERATED_AT_HEADER]: { description: 'When the snapshot was generated (its `generated_at`).', schema: { type: 'string', format: 'date-time' } },
    },
  })
  async snapshot(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    const snapshot = await this.snapshots.answer();
    // The stored JSON goes out as is (a string body with a JSON content type is not serialised again), or its gzip form made once.
    void reply.header(SNAPSHOT_GENERATED_AT_HEADER, snapshot.generatedAt).header('vary', 'accept-encoding');
    const body = sendJson(request, reply, snapshot);
    if (body === '' || !acceptsGzip(request.headers['accept-encoding'])) return body;
    void reply.header('content-encoding', 'gzip');
    return snapshot.gzip;
  }
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

@ApiTags('reward-snapshot')
@Controller('api/v1/reward-snapshots')
export class RewardSnapshotHistoryController {
  constructor(private readonly snapshots: RewardSnapshotService) {}

  @Get(':sha256')
  @Public()
  @ApiErrors(ErrorCode.RewardSnapshotNotFound)
  @ApiProduces('application/json')
  @ApiOperation({
    summary: 'A served reward snapshot by its SHA-256',
    description:
      'Public and immutable (`Cache-Control: immutable`): every snapshot the coordinator served, byte for byte, named by the lowercase hex ' +
      'SHA-256 of its bytes, as the pool records it in each epoch (DECISIONS.md §16). A snapshot stays `SNAPSHOT_HISTORY_DAYS` after a newer one replaced it.',
  })
  @ApiOkResponse({ type: RewardSnapshotDto, description: 'The snapshot as it was served.' })
  async bySha256(@Param('sha256') sha256: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const snapshot = SHA256_HEX.test(sha256) ? await this.snapshots.bySha256(sha256.toLowerCase()) : null;
    if (snapshot === null) throw ApiError.notFound(ErrorCode.RewardSnapshotNotFound, `No served reward snapshot has SHA-256 ${sha256}.`, { sha256 });
    void reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', `"${sha256.toLowerCase()}"`)
      .header(SNAPSHOT_GENERATED_AT_HEADER, snapshot.generatedAt);
    return snapshot.body;
  }
}

/** `Accept-Encoding` names gzip (or `*`) with a non-zero quality. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((entry) => {
    const [coding, ...params] = entry.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding.trim() === 'gzip' || coding.trim() === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

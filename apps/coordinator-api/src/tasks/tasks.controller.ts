import { applyDecorators, Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Admin, Public } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, CreateTaskDto, ErrorCode, HeldoutBudgetDto, TaskDto, TaskQueryDto, TaskStateUpdateDto } from '@rcs/contracts';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { JsonAnswer, jsonAnswer, sendJson } from '../common/json-answer';
import { ReadCoalescer } from '../common/read-coalescer';
import { BASE_URL_HEADERS, serviceBaseUrl } from './request-base-url';
import { toTaskDto } from './task.mapper';
import { TaskOperation } from './task-transitions';
import { OnboardDocumentService } from './onboard-document.service';
import { TasksService } from './tasks.service';
import { PublicListRoute } from '../common/list-route';

const TASK_ID = { name: 'task_id', description: 'Task id (uuid); anything else is 404 `task_not_found`.' };

/** `POST /api/v1/tasks/{task_id}/<operation>`: an admin state move answering TaskStateUpdateDto. */
function TaskStateRoute(operation: string, summary: string, description: string): MethodDecorator {
  return applyDecorators(
    Post(`:task_id/${operation}`),
    Admin(),
    HttpCode(200),
    ApiOperation({ summary, description: `Admin only. ${description}` }),
    ApiParam(TASK_ID),
    ApiOkResponse({ type: TaskStateUpdateDto, description: 'The state change.' }),
    ApiErrors(
      ErrorCode.InvalidAdminToken,
      ErrorCode.TaskNotFound,
      [ErrorCode.InvalidTaskTransition, '(with `task_id`, `task_state` and `requested`)'],
      [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'],
    ),
  );
}

@ApiTags('tasks')
@Controller('api/v1/tasks')
export class TasksController {
  /** Concurrent reads of one list or task share a query and its serialised answer. */
  private readonly reads = new ReadCoalescer<JsonAnswer>();

  constructor(
    private readonly tasks: TasksService,
    private readonly onboardDocuments: OnboardDocumentService,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  @Post()
  @Admin()
  @ApiOperation({
    summary: 'Create a task (competition)',
    description: 'Admin only. The task starts `live`. `validator_benchmark_env` is stored for validators and never shown publicly.',
  })
  @ApiCreatedResponse({ type: TaskDto, description: 'The new task, defaults applied.' })
  @ApiValidationFailure('Body outside the spec bounds; one item per violation.')
  @ApiErrors(ErrorCode.InvalidAdminToken, ErrorCode.DuplicateSlug, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'])
  async create(@Body() body: CreateTaskDto): Promise<TaskDto> {
    const [created] = await this.tasks.withExposureOf([await this.tasks.create(body)]);
    return toTaskDto(created.task, created.exposure);
  }

  @Put(':task_id/heldout-budget')
  @Admin()
  @ApiOperation({
    summary: "Set a task's held-out exposure budget",
    description:
      'Admin only (DECISIONS §17). Results decided from now on are released through it; `enabled: false` returns to exact release. ' +
      'The active shard keeps the bits it has spent.',
  })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: TaskDto, description: 'The task with its budget and exposure.' })
  @ApiValidationFailure('Budget outside its bounds; one item per violation.')
  @ApiErrors(ErrorCode.InvalidAdminToken, ErrorCode.TaskNotFound, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'])
  async setBudget(@Param('task_id') taskId: string, @Body() body: HeldoutBudgetDto): Promise<TaskDto> {
    const { task, exposure } = await this.tasks.setBudget(taskId, body);
    return toTaskDto(task, exposure);
  }

  @PublicListRoute(undefined, TaskDto, 'Query fails validation (task_state, limit 1..1000, offset >= 0).')
  @ApiOperation({ summary: 'List tasks, newest first', description: 'Public; optionally only one `task_state`, paged.' })
  async list(@Query() query: TaskQueryDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const answer = await this.reads.read(`list:${JSON.stringify(query)}`, async () => jsonAnswer((await this.tasks.list(query)).map(({ task, exposure }) => toTaskDto(task, exposure))));
    return sendJson(request, reply, answer);
  }

  @Get(':task_id')
  @Public()
  @ApiOperation({ summary: 'One task' })
  @ApiParam(TASK_ID)
  @ApiOkResponse({ type: TaskDto, description: 'The task.' })
  @ApiErrors(ErrorCode.TaskNotFound)
  async get(@Param('task_id') taskId: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const answer = await this.reads.read(`task:${taskId}`, async () => {
      const { task, exposure } = await this.tasks.getWithExposure(taskId);
      return jsonAnswer(toTaskDto(task, exposure));
    });
    return sendJson(request, reply, answer);
  }

  @Get(':task_id/onboard.md')
  @Public()
  @ApiOperation({
    summary: 'Onboarding document of a task',
    description:
      'Markdown with the sections of the task contract: Competition, Model Contract, Source, Main Files, Allowed Edit Surfaces, ' +
      'Environment, Agent API Workflow, Mode Rules, Hardware, Competition-specific Notes, Task Brief. URLs use PUBLIC_BASE_URL, ' +
      'else the request (Host; X-Forwarded-Proto / X-Forwarded-Host only from TRUSTED_PROXIES, with Vary).',
  })
  @ApiParam(TASK_ID)
  @ApiProduces('text/markdown')
  @ApiOkResponse({ description: 'The onboarding document.', schema: { type: 'string' } })
  @ApiErrors(ErrorCode.TaskNotFound)
  async onboard(
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const document = await this.onboardDocuments.render(taskId, serviceBaseUrl(this.config, request));
    // Set only on success (unlike @Header), so a 404 still goes out as JSON.
    void reply.type('text/markdown; charset=utf-8');
    // Without PUBLIC_BASE_URL the document depends on these headers: a shared cache must key on them.
    if (this.config.publicBaseUrl === null) void reply.header('vary', BASE_URL_HEADERS);
    return document;
  }

  @TaskStateRoute('pause', 'Pause a live task', 'live → paused: no new claims or submissions; pending verifications still complete.')
  pause(@Param('task_id') taskId: string): Promise<TaskStateUpdateDto> {
    return this.tasks.transition(taskId, TaskOperation.Pause);
  }

  @TaskStateRoute('resume', 'Resume a paused task', 'paused → live.')
  resume(@Param('task_id') taskId: string): Promise<TaskStateUpdateDto> {
    return this.tasks.transition(taskId, TaskOperation.Resume);
  }

  @TaskStateRoute('close', 'Close a task for good', 'live or paused → closed (terminal): no new claims or submissions, and the best result freezes.')
  close(@Param('task_id') taskId: string): Promise<TaskStateUpdateDto> {
    return this.tasks.transition(taskId, TaskOperation.Close);
  }
}

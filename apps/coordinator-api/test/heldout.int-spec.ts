import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeldoutShardDto, HeldoutVerificationDto, TaskDto, ValidatorJobDto, VerificationSummaryDto } from '@rcs/contracts';
import { SseClient, type SseEvent } from '@rcs/testing';
import { errorOf, expectStatus, Reply } from './submissions-fixtures';
import { startValidation, ValidationSetup } from './validator-jobs-fixtures';

/** Above the 2 MiB limit of JSON bodies: a shard is streamed, not held by the body parser. */
const MAX_BYTES = 3 * 1024 * 1024;

/** Private held-out delivery (DECISIONS.md §6): admin shard store, per-lease choice, the lessee-only download, the audit. */
describe('held-out shards', () => {
  let setup: ValidationSetup;
  let storeDir: string;
  const sha = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
  /** Printable bytes, so a download compares as text. */
  const shardBytes = (): Buffer => Buffer.from(`heldout ${randomBytes(24).toString('hex')}\n`);

  const upload = async (taskId: string, bytes: Buffer, name: string, headers: Record<string, string> = {}): Promise<Reply<HeldoutShardDto>> => {
    const response = await fetch(`${setup.h.url}/api/v1/tasks/${taskId}/heldout`, {
      method: 'POST',
      body: bytes,
      headers: { 'x-admin-token': setup.h.adminToken, 'content-type': 'application/octet-stream', 'x-heldout-name': name, ...headers },
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as HeldoutShardDto, text, headers: response.headers };
  };

  const uploaded = async (taskId: string, bytes: Buffer, name: string): Promise<HeldoutShardDto> => {
    const reply = await upload(taskId, bytes, name);
    expectStatus(reply, 201);
    return reply.body;
  };

  const heldoutTask = (env: Record<string, string> = { HELDOUT_SHARD: 'coordinator', DATA_MIX: 'web:0.7' }): Promise<TaskDto> =>
    setup.api.createTask({ validator_benchmark_env: env });

  const storedFiles = async (): Promise<string[]> => (await readdir(storeDir)).filter((name) => !name.startsWith('.')).sort();

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'rcs-heldout-'));
    setup = await startValidation({ HELDOUT_STORE_DIR: storeDir, HELDOUT_MAX_BYTES: String(MAX_BYTES) });
  });

  afterAll(async () => {
    await setup.h.close();
    await rm(storeDir, { recursive: true, force: true });
  });

  describe('the admin store', () => {
    it('stores an upload under its SHA-256, once for the same bytes, and lists it', async () => {
      const task = await heldoutTask();
      const bytes = shardBytes();
      const first = await upload(task.id, bytes, 'wiki-2024.bin');
      expectStatus(first, 201);
      expect(first.body).toEqual({ task_id: task.id, sha256: sha(bytes), name: 'wiki-2024.bin', bytes: bytes.length, created_at: expect.any(String) });
      const again = await upload(task.id, bytes, 'renamed.bin');
      expectStatus(again, 200);
      expect(again.body).toEqual(first.body);
      expect(await storedFiles()).toContain(sha(bytes));
      expect((await stat(join(storeDir, sha(bytes)))).size).toBe(bytes.length);
      // No temporary file is left behind.
      expect(await readdir(join(storeDir, '.incoming'))).toEqual([]);

      const listed = await setup.api.admin<HeldoutShardDto[]>('GET', `/api/v1/tasks/${task.id}/heldout`);
      expectStatus(listed, 200);
      expect(listed.body).toEqual([first.body]);
    });

    it('takes a shard larger than the JSON body limit, streamed into the store', async () => {
      const task = await heldoutTask();
      const big = randomBytes(MAX_BYTES - 1024);
      const reply = await upload(task.id, big, 'big.bin');
      expectStatus(reply, 201);
      expect(reply.body).toMatchObject({ sha256: sha(big), bytes: big.length });
      expect((await stat(join(storeDir, sha(big)))).size).toBe(big.length);
    });

    it('refuses non-admins: no token 401, a validator signature 401, a wrong token 401', async () => {
      const task = await heldoutTask();
      const bytes = shardBytes();
      const anonymous = await upload(task.id, bytes, 'a.bin', { 'x-admin-token': '' });
      expectStatus(anonymous, 401);
      expect(errorOf(anonymous)).toBe('invalid_admin_token');
      expectStatus(await upload(task.id, bytes, 'a.bin', { 'x-admin-token': 'not-the-token' }), 401);
      const signedList = await setup.api.signed(setup.people.alice, 'GET', `/api/v1/tasks/${task.id}/heldout`);
      expectStatus(signedList, 401);
      expectStatus(await setup.api.anonymous('GET', `/api/v1/tasks/${task.id}/heldout`), 401);
      expectStatus(await setup.api.anonymous('DELETE', `/api/v1/tasks/${task.id}/heldout/${sha(bytes)}`), 401);
      expectStatus(await setup.api.anonymous('GET', `/api/v1/tasks/${task.id}/heldout/verifications`), 401);
      expect(await storedFiles()).not.toContain(sha(bytes));
    });

    it('answers 413 over HELDOUT_MAX_BYTES, 422 without an X-Heldout-Name or bytes, 404 for an unknown task, 415 for bytes elsewhere', async () => {
      const task = await heldoutTask();
      const big = Buffer.alloc(MAX_BYTES + 1, 0x61);
      const tooLarge = await upload(task.id, big, 'big.bin');
      expectStatus(tooLarge, 413);
      expect(tooLarge.body).toMatchObject({ detail: { error: 'body_too_large', max_bytes: MAX_BYTES } });
      expect(await storedFiles()).not.toContain(sha(big));

      const noName = await fetch(`${setup.h.url}/api/v1/tasks/${task.id}/heldout`, {
        method: 'POST',
        body: shardBytes(),
        headers: { 'x-admin-token': setup.h.adminToken, 'content-type': 'application/octet-stream' },
      });
      expect(noName.status).toBe(422);
      expect(((await noName.json()) as { detail: { loc: string[] }[] }).detail.map((item) => item.loc.join('.'))).toEqual(['header.x-heldout-name']);
      const badName = await upload(task.id, shardBytes(), '../escape');
      expectStatus(badName, 422);
      expect(badName.text).toContain('string_pattern_mismatch');
      const empty = await upload(task.id, Buffer.alloc(0), 'empty.bin');
      expectStatus(empty, 422);
      expect(empty.text).toContain('"body"');

      expectStatus(await upload('5d7c8e1e-0000-4000-8000-000000000000', shardBytes(), 'x.bin'), 404);
      const elsewhere = await fetch(`${setup.h.url}/api/v1/tasks`, {
        method: 'POST',
        body: shardBytes(),
        headers: { 'x-admin-token': setup.h.adminToken, 'content-type': 'application/octet-stream' },
      });
      expect(elsewhere.status).toBe(415);
      expect(((await elsewhere.json()) as { detail: { error: string } }).detail.error).toBe('unsupported_media_type');
    });

    it('deletes a shard; its file goes only when no other task holds the same bytes', async () => {
      const [one, two] = [await heldoutTask(), await heldoutTask()];
      const bytes = shardBytes();
      await uploaded(one.id, bytes, 'shared.bin');
      await uploaded(two.id, bytes, 'shared.bin');
      expect((await storedFiles()).filter((file) => file === sha(bytes))).toHaveLength(1);

      const first = await setup.api.admin('DELETE', `/api/v1/tasks/${one.id}/heldout/${sha(bytes)}`);
      expectStatus(first, 200);
      expect(first.body).toEqual({ deleted: true, sha256: sha(bytes), file_removed: false });
      expect(await storedFiles()).toContain(sha(bytes));
      expect((await setup.api.admin<HeldoutShardDto[]>('GET', `/api/v1/tasks/${one.id}/heldout`)).body).toEqual([]);

      const second = await setup.api.admin('DELETE', `/api/v1/tasks/${two.id}/heldout/${sha(bytes)}`);
      expect(second.body).toEqual({ deleted: true, sha256: sha(bytes), file_removed: true });
      expect(await storedFiles()).not.toContain(sha(bytes));
      const gone = await setup.api.admin('DELETE', `/api/v1/tasks/${two.id}/heldout/${sha(bytes)}`);
      expectStatus(gone, 404);
      expect(errorOf(gone)).toBe('heldout_shard_not_found');
    });
  });

  describe('delivery to the lessee', () => {
    let task: TaskDto;
    let bytes: Buffer;
    let shard: HeldoutShardDto;

    beforeAll(async () => {
      task = await heldoutTask({ HELDOUT_SHARD: 'coordinator', HELDOUT_TOKEN: 'stale', DATA_MIX: 'web:0.7' });
      bytes = shardBytes();
      shard = await uploaded(task.id, bytes, 'eval-private.bin');
    });

    const download = (jobId: string, who = setup.people.alice) => setup.api.signed(who, 'GET', `/api/v1/validator/jobs/${jobId}/heldout`);

    it("announces the job's shard in its scan answer: the download URL and digest, never the selector or the name", async () => {
      const submission = await setup.api.pending(setup.people.dave, task.id);
      const job = await setup.api.leaseOf(setup.people.alice, submission);
      expect(job.replay_spec.validator_benchmark_env).toEqual({
        DATA_MIX: 'web:0.7',
        HELDOUT_URL: `${setup.h.url}/api/v1/validator/jobs/${job.job_id}/heldout`,
        HELDOUT_SHA256: shard.sha256,
      });
      expect(JSON.stringify(job)).not.toContain('eval-private');
      // The other compat fields of replay_spec are unchanged.
      expect(Object.keys(job.replay_spec).sort()).toEqual(
        [
          'allowed_patch_paths', 'artifact_sha256', 'artifact_size_bytes', 'artifact_uri', 'base_commit_sha', 'base_ref', 'benchmark_command',
          'max_patch_bytes', 'metric_direction', 'metric_name', 'patch', 'ranking_mode', 'repository', 'result_path', 'secondary_metric_direction',
          'secondary_metric_name', 'setup_command', 'time_budget_seconds', 'validator_benchmark_env',
        ].sort(),
      );

      const got = await download(job.job_id);
      expectStatus(got, 200);
      expect(got.headers.get('content-type')).toBe('application/octet-stream');
      expect(got.headers.get('cache-control')).toBe('no-store');
      expect(got.text).toBe(bytes.toString());
      expect(sha(got.text)).toBe(shard.sha256);
    });

    it('refuses everyone but the lessee: another validator 403, a hotkey off the allowlist 403, unsigned 401, an admin 401', async () => {
      const submission = await setup.api.pending(setup.people.eve, task.id);
      const job = await setup.api.leaseOf(setup.people.alice, submission);
      const other = await download(job.job_id, setup.people.bob);
      expectStatus(other, 403);
      expect(errorOf(other)).toBe('not_job_lessee');
      expect(other.text).not.toContain(shard.sha256);
      const stranger = await download(job.job_id, setup.people.charlie);
      expectStatus(stranger, 403);
      expect(errorOf(stranger)).toBe('validator_not_allowlisted');
      const unsigned = await setup.api.anonymous('GET', `/api/v1/validator/jobs/${job.job_id}/heldout`);
      expectStatus(unsigned, 401);
      expect(errorOf(unsigned)).toBe('missing_signature');
      expectStatus(await setup.api.admin('GET', `/api/v1/validator/jobs/${job.job_id}/heldout`), 401);
      expectStatus(await download('not-a-job'), 404);
    });

    it('stops serving once the lease ends: expired 409 job_not_leased, completed 409 job_already_completed', async () => {
      const expiring = await setup.api.leaseOf(setup.people.alice, await setup.api.pending(setup.people.ferdie, task.id));
      await setup.api.expireLease(expiring.job_id);
      const expired = await download(expiring.job_id);
      expectStatus(expired, 409);
      expect(errorOf(expired)).toBe('job_not_leased');

      const submission = await setup.api.pending(setup.people.dave, task.id);
      const job = await setup.api.leaseOf(setup.people.bob, submission);
      expectStatus(await download(job.job_id, setup.people.bob), 200);
      expectStatus(await setup.api.result(setup.people.bob, job.job_id, { status: 'rejected', notes: 'no improvement' }), 200);
      const completed = await download(job.job_id, setup.people.bob);
      expectStatus(completed, 409);
      expect(errorOf(completed)).toBe('job_already_completed');
    });

    it('answers 404 heldout_shard_not_found once the admin withdrew the shard mid-lease', async () => {
      const own = await heldoutTask();
      const ownBytes = shardBytes();
      await uploaded(own.id, ownBytes, 'withdrawn.bin');
      const job = await setup.api.leaseOf(setup.people.alice, await setup.api.pending(setup.people.eve, own.id));
      expectStatus(await setup.api.admin('DELETE', `/api/v1/tasks/${own.id}/heldout/${sha(ownBytes)}`), 200);
      const withdrawn = await download(job.job_id);
      expectStatus(withdrawn, 404);
      expect(errorOf(withdrawn)).toBe('heldout_shard_not_found');
    });

    it('leaves the env as it is for a task without `<NAME>_SHARD`', async () => {
      const plain = await setup.api.createTask({ validator_benchmark_env: { EVAL_URL: 'https://data.test/eval.bin', EVAL_TOKEN: 't' } });
      const plainJob = await setup.api.leaseOf(setup.people.alice, await setup.api.pending(setup.people.dave, plain.id));
      expect(plainJob.replay_spec.validator_benchmark_env).toEqual({ EVAL_URL: 'https://data.test/eval.bin', EVAL_TOKEN: 't' });
    });

    it('does not lease a task whose env names coordinator shards it does not hold, until a matching shard is uploaded (§6)', async () => {
      // Leased without its shard, the job would be replayed without held-out data and the miner blamed.
      const empty = await heldoutTask();
      const waiting = await setup.api.pending(setup.people.dave, empty.id);
      expect(await setup.api.leased(setup.people.alice, { task_id: empty.id, limit: 16 })).toEqual([]);
      const named = await heldoutTask({ EVAL_SHARD: 'coordinator:wiki.bin' });
      const waitingNamed = await setup.api.pending(setup.people.dave, named.id);
      // A shard of another name is not the one the env names.
      await uploaded(named.id, shardBytes(), 'books.bin');
      expect(await setup.api.leased(setup.people.alice, { task_id: named.id, limit: 16 })).toEqual([]);

      const shard = await uploaded(empty.id, shardBytes(), 'any.bin');
      const job = await setup.api.leaseOf(setup.people.alice, waiting);
      expect(job.replay_spec.validator_benchmark_env).toEqual({ DATA_MIX: 'web:0.7', HELDOUT_URL: `${setup.h.url}/api/v1/validator/jobs/${job.job_id}/heldout`, HELDOUT_SHA256: shard.sha256 });
      const wiki = await uploaded(named.id, shardBytes(), 'wiki.bin');
      expect((await setup.api.leaseOf(setup.people.alice, waitingNamed)).replay_spec.validator_benchmark_env).toMatchObject({ EVAL_SHA256: wiki.sha256 });
    });
  });

  describe('rotation and audit', () => {
    it('narrows the choice to the shards of one name with `coordinator:<name>`', async () => {
      const task = await heldoutTask({ EVAL_SHARD: 'coordinator:wiki.bin' });
      await uploaded(task.id, shardBytes(), 'books.bin');
      const wiki = await uploaded(task.id, shardBytes(), 'wiki.bin');
      for (const miner of [setup.people.dave, setup.people.eve]) {
        const job = await setup.api.leaseOf(setup.people.alice, await setup.api.pending(miner, task.id));
        expect(job.replay_spec.validator_benchmark_env).toEqual({
          EVAL_URL: `${setup.h.url}/api/v1/validator/jobs/${job.job_id}/heldout`,
          EVAL_SHA256: wiki.sha256,
        });
      }
    });

    it('gives each job of a task the least-used shard and records it on its verification, for admins only', async () => {
      const task = await heldoutTask();
      const shards = [await uploaded(task.id, shardBytes(), 'a.bin'), await uploaded(task.id, shardBytes(), 'b.bin'), await uploaded(task.id, shardBytes(), 'c.bin')];
      const miners = [setup.people.dave, setup.people.eve, setup.people.ferdie];
      const submissions = [];
      for (const miner of miners) submissions.push(await setup.api.pending(miner, task.id));
      const jobs: ValidatorJobDto[] = await setup.api.leased(setup.people.alice, { task_id: task.id, limit: 16 });
      expect(jobs).toHaveLength(3);
      const given = jobs.map((job) => job.replay_spec.validator_benchmark_env.HELDOUT_SHA256);
      expect([...given].sort()).toEqual(shards.map((s) => s.sha256).sort());

      const events = await SseClient.connect(`${setup.h.url}/api/v1/events`, {});
      try {
        const verifications: VerificationSummaryDto[] = [];
        for (const job of jobs) {
          const got = await setup.api.signed(setup.people.alice, 'GET', `/api/v1/validator/jobs/${job.job_id}/heldout`);
          expect(sha(got.text)).toBe(job.replay_spec.validator_benchmark_env.HELDOUT_SHA256);
          const posted = await setup.api.result(setup.people.alice, job.job_id, { status: 'accepted', observed_metrics: { loss: 0.5 } });
          expectStatus(posted, 200);
          verifications.push(posted.body);
        }

        const audit = await setup.api.admin<HeldoutVerificationDto[]>('GET', `/api/v1/tasks/${task.id}/heldout/verifications`);
        expectStatus(audit, 200);
        const byJob = new Map(audit.body.map((use) => [use.job_id, use]));
        for (const [index, job] of jobs.entries()) {
          const shard = shards.find((s) => s.sha256 === given[index]) as HeldoutShardDto;
          expect(byJob.get(job.job_id)).toEqual({
            verification_id: verifications[index].id,
            job_id: job.job_id,
            submission_id: job.submission_id,
            validator_hotkey: setup.people.alice.hotkey,
            status: verifications[index].status,
            heldout_sha256: shard.sha256,
            heldout_name: shard.name,
            // No held-out budget: the raw metric is public anyway, and nothing was released against one.
            metric_value: 0.5,
            observed_metrics: { loss: 0.5 },
            release: null,
            released_metric_value: null,
            metric_withheld: false,
            created_at: expect.any(String),
          });
        }

        // With every shard used once, a fourth job still gets one of them.
        const fourth = await setup.api.leaseOf(setup.people.bob, await setup.api.pending(setup.people.dave, task.id));
        expect(given).toContain(fourth.replay_spec.validator_benchmark_env.HELDOUT_SHA256);

        // Nothing public carries a shard: the verification summaries, the task, its onboarding document, lists, events.
        const seen: SseEvent[] = [];
        for (;;) {
          const [event] = await events.take(1);
          seen.push(event);
          if (seen.filter((e) => e.event === 'decision' && (e.data as { task_id?: string }).task_id === task.id).length === 3) break;
        }
        const publicTexts = [
          JSON.stringify(seen),
          JSON.stringify(verifications),
          (await setup.api.anonymous('GET', `/api/v1/verifications?submission_id=${submissions[0].id}`)).text,
          (await setup.api.anonymous('GET', `/api/v1/tasks/${task.id}`)).text,
          (await setup.api.anonymous('GET', `/api/v1/tasks/${task.id}/onboard.md`)).text,
          (await setup.api.anonymous('GET', '/api/v1/tasks?limit=1000')).text,
          (await setup.api.anonymous('GET', `/api/v1/submissions/${submissions[0].id}`)).text,
        ];
        for (const text of publicTexts) {
          for (const shard of shards) {
            expect(text).not.toContain(shard.sha256);
            expect(text).not.toContain(shard.name);
          }
          expect(text).not.toContain('/heldout');
          expect(text).not.toContain('HELDOUT_SHARD');
        }
      } finally {
        events.close();
      }
    });
  });
});

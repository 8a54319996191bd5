import { TaskDto } from '@rcs/contracts';
import { expectStatus, itemsOf } from './submissions-fixtures';
import { Cast, startValidationForSuite, ValidationClient } from './validator-jobs-fixtures';

/** Hardware on tasks and the capabilities validators scan with (our extension; DECISIONS §6 leases). */
describe('task hardware', () => {
  let api: ValidationClient;
  let people: Cast;

  startValidationForSuite((setup) => {
    ({ people, api } = setup);
  });

  const stored = async (taskId: string) =>
    (await api.query<{ hardware_gpu_count: number | null; hardware_gpu_memory_gb: number | null }>(
      'SELECT hardware_gpu_count, hardware_gpu_memory_gb FROM tasks WHERE id = $1',
      [taskId],
    ))[0];
  const jobOf = async (submissionId: string) =>
    (await api.query<{ id: string; status: string; attempts: number; validator_hotkey: string | null }>(
      'SELECT id, status, attempts, validator_hotkey FROM validator_jobs WHERE submission_id = $1',
      [submissionId],
    ))[0];

  describe('POST /api/v1/tasks', () => {
    it('stores the hardware and answers it in the task, its list entry and its onboarding document', async () => {
      const task = await api.createTask({ hardware: { gpu_count: 2, gpu_memory_gb: 40 } });
      expect(task.hardware).toEqual({ gpu_count: 2, gpu_memory_gb: 40 });
      expect(await stored(task.id)).toEqual({ hardware_gpu_count: 2, hardware_gpu_memory_gb: 40 });

      const read = await api.anonymous<TaskDto>('GET', `/api/v1/tasks/${task.id}`);
      expectStatus(read, 200);
      expect(read.body.hardware).toEqual({ gpu_count: 2, gpu_memory_gb: 40 });
      const list = await api.anonymous<TaskDto[]>('GET', '/api/v1/tasks?limit=200');
      expect(list.body.find((entry) => entry.id === task.id)?.hardware).toEqual({ gpu_count: 2, gpu_memory_gb: 40 });

      const onboard = await api.anonymous<string>('GET', `/api/v1/tasks/${task.id}/onboard.md`);
      expectStatus(onboard, 200);
      const hardware = onboard.text.slice(onboard.text.indexOf('## Hardware'), onboard.text.indexOf('## Competition-specific Notes'));
      expect(hardware).toContain('- GPUs: 2 NVIDIA GPUs, each with at least 40 GB of memory.');
    });

    it('answers hardware null, and says so in onboard.md, when the task states none', async () => {
      const task = await api.createTask();
      expect(task.hardware).toBeNull();
      expect(await stored(task.id)).toEqual({ hardware_gpu_count: null, hardware_gpu_memory_gb: null });
      const onboard = await api.anonymous<string>('GET', `/api/v1/tasks/${task.id}/onboard.md`);
      expect(onboard.text).toContain('Validator hardware is not stated by this task');
    });

    it('defaults gpu_memory_gb to 0 and takes a CPU-only statement (gpu_count 0)', async () => {
      expect((await api.createTask({ hardware: { gpu_count: 1 } })).hardware).toEqual({ gpu_count: 1, gpu_memory_gb: 0 });
      const cpu = await api.createTask({ hardware: { gpu_count: 0 } });
      expect(cpu.hardware).toEqual({ gpu_count: 0, gpu_memory_gb: 0 });
      expect((await api.anonymous<string>('GET', `/api/v1/tasks/${cpu.id}/onboard.md`)).text).toContain('- GPUs: none.');
    });

    it.each<[string, unknown, [string, string][]]>([
      ['a missing gpu_count', {}, [['missing', 'body.hardware.gpu_count']]],
      ['a negative gpu_count', { gpu_count: -1 }, [['greater_than_equal', 'body.hardware.gpu_count']]],
      ['a fractional gpu_count', { gpu_count: 1.5 }, [['int_type', 'body.hardware.gpu_count']]],
      ['gpu_count 65', { gpu_count: 65 }, [['less_than_equal', 'body.hardware.gpu_count']]],
      ['a negative gpu_memory_gb', { gpu_count: 1, gpu_memory_gb: -1 }, [['greater_than_equal', 'body.hardware.gpu_memory_gb']]],
      ['a string gpu_memory_gb', { gpu_count: 1, gpu_memory_gb: '80' }, [['float_type', 'body.hardware.gpu_memory_gb']]],
      ['an unknown hardware property', { gpu_count: 1, cpu_cores: 8 }, [['extra_forbidden', 'body.hardware.cpu_cores']]],
      ['hardware that is not an object', 'a100', [['model_type', 'body.hardware']]],
    ])('answers 422 in the DECISIONS §1 shape for %s, and stores nothing', async (_name, hardware, items) => {
      const before = await api.query<{ n: number }>('SELECT count(*)::int AS n FROM tasks');
      const reply = await api.admin('POST', '/api/v1/tasks', { slug: `hw-${Date.now()}`, title: 'GPU task', repository: 'https://git.test/r.git', base_ref: 'main', benchmark_command: 'python bench.py', metric_name: 'loss', metric_direction: 'minimize', time_budget_seconds: 60, hardware });
      expect(itemsOf(reply)).toEqual(items);
      expect((reply.body as { detail: { msg: string }[] }).detail[0].msg).toEqual(expect.any(String));
      expect(await api.query('SELECT count(*)::int AS n FROM tasks')).toEqual(before);
    });
  });

  describe('leases', () => {
    it('never leases a GPU task to a CPU-only scan, which leaves its attempts at 0; a scan with the GPUs leases it', async () => {
      const gpuTask = await api.createTask({ hardware: { gpu_count: 1, gpu_memory_gb: 40 } });
      const submission = await api.pending(people.dave, gpuTask.id);

      expect(await api.leased(people.alice, { task_id: gpuTask.id, limit: 16 })).toEqual([]);
      expect(await api.leased(people.alice, { task_id: gpuTask.id, limit: 16, capabilities: null })).toEqual([]);
      expect(await api.leased(people.alice, { task_id: gpuTask.id, limit: 16, capabilities: { gpu_count: 0 } })).toEqual([]);
      // Enough GPUs with too little memory, or enough memory on too few GPUs, is not enough either.
      expect(await api.leased(people.alice, { task_id: gpuTask.id, limit: 16, capabilities: { gpu_count: 4, gpu_memory_gb: 24 } })).toEqual([]);
      expect(await api.leased(people.alice, { task_id: gpuTask.id, limit: 16, capabilities: { gpu_count: 0, gpu_memory_gb: 80 } })).toEqual([]);
      const claim = await api.signed(people.alice, 'POST', '/api/v1/validator/jobs/claim', { task_id: gpuTask.id });
      expectStatus(claim, 404);
      expect(await jobOf(submission.id)).toMatchObject({ status: 'pending', attempts: 0, validator_hotkey: null });

      const leased = await api.leased(people.bob, { task_id: gpuTask.id, limit: 16, capabilities: { gpu_count: 1, gpu_memory_gb: 40 } });
      expect(leased.map((job) => job.submission_id)).toEqual([submission.id]);
      expect(await jobOf(submission.id)).toMatchObject({ status: 'leased', attempts: 0, validator_hotkey: people.bob.hotkey });
    });

    it('leases a GPU task through jobs/claim to a validator declaring more than it asks', async () => {
      const gpuTask = await api.createTask({ hardware: { gpu_count: 2, gpu_memory_gb: 24 } });
      const submission = await api.pending(people.eve, gpuTask.id);
      const claim = await api.signed<{ submission_id: string }>(people.alice, 'POST', '/api/v1/validator/jobs/claim', {
        task_id: gpuTask.id,
        capabilities: { gpu_count: 8, gpu_memory_gb: 85.5 },
      });
      expectStatus(claim, 200);
      expect(claim.body.submission_id).toBe(submission.id);
    });

    it('leases a CPU task, with or without stated hardware, to CPU-only and GPU validators alike', async () => {
      for (const hardware of [undefined, { gpu_count: 0 }]) {
        const cpuTask = await api.createTask(hardware === undefined ? {} : { hardware });
        const first = await api.pending(people.ferdie, cpuTask.id);
        const second = await api.pending(people.charlie, cpuTask.id);
        const cpuOnly = await api.leased(people.alice, { task_id: cpuTask.id, limit: 1 });
        expect(cpuOnly.map((job) => job.submission_id)).toEqual([first.id]);
        const withGpu = await api.leased(people.bob, { task_id: cpuTask.id, limit: 1, capabilities: { gpu_count: 1, gpu_memory_gb: 80 } });
        expect(withGpu.map((job) => job.submission_id)).toEqual([second.id]);
      }
    });

    it('passes over a GPU job it cannot take to lease the next job it can, oldest first', async () => {
      const gpuTask = await api.createTask({ hardware: { gpu_count: 1 } });
      const cpuTask = await api.createTask();
      const gpuJob = await api.pending(people.dave, gpuTask.id);
      const cpuJob = await api.pending(people.eve, cpuTask.id);
      const leased = await api.leased(people.alice, { limit: 16 });
      const mine = leased.map((job) => job.submission_id);
      expect(mine).toContain(cpuJob.id);
      expect(mine).not.toContain(gpuJob.id);
      expect(await jobOf(gpuJob.id)).toMatchObject({ status: 'pending', attempts: 0 });
    });

    it('answers 422 for bad capabilities, on scan and on claim', async () => {
      expect(itemsOf(await api.scan(people.alice, { capabilities: { gpu_count: -1 } }))).toEqual([['greater_than_equal', 'body.capabilities.gpu_count']]);
      expect(itemsOf(await api.scan(people.alice, { capabilities: { gpu_count: 1, vram: 8 } }))).toEqual([['extra_forbidden', 'body.capabilities.vram']]);
      const claim = await api.signed(people.alice, 'POST', '/api/v1/validator/jobs/claim', { capabilities: { gpu_memory_gb: 'lots' } });
      expect(itemsOf(claim)).toEqual([['float_type', 'body.capabilities.gpu_memory_gb']]);
    });
  });
});

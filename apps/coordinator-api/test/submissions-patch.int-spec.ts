import { BtAuthSigner } from '@rcs/auth';
import { SubmissionDto, TaskDto } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinator } from './harness';
import { expectStatus, ScratchRepo, signerFor, TestClient } from './submissions-fixtures';

interface Item {
  type: string;
  loc: string[];
  msg: string;
  input?: string;
  ctx: Record<string, unknown>;
}

/** Patch surface (DECISIONS.md §5) on real `git diff --binary` output: violations are 422 items at body.patch. */
describe('POST /api/v1/submissions: patch surface', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let alice: BtAuthSigner;
  let task: TaskDto;
  let repo: ScratchRepo;
  let claimId: string;

  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0xff]);

  beforeAll(async () => {
    h = await startCoordinator({ SUBMISSION_RATE_LIMIT_MAX: '0', CLAIM_RATE_LIMIT_MAX: '0' });
    api = new TestClient(h);
    alice = await signerFor('//Alice');
    task = await api.createTask({ allowed_patch_paths: ['pack/train.py', 'pack/data/**'], max_patch_bytes: 2048 });
    repo = ScratchRepo.create({
      'pack/train.py': 'EPOCHS = 1\n',
      'pack/data/mix.txt': 'a\n',
      'pack/eval.py': 'SHARD = "heldout"\n',
      'README.md': '# pack\n',
    });
    claimId = (await api.claim(alice, task.id)).id;
  });

  afterAll(async () => {
    repo.remove();
    await h.close();
  });

  async function refused(patch: string): Promise<Item[]> {
    const reply = await api.submit<{ detail: Item[] }>(alice, { claim_id: claimId, patch });
    expectStatus(reply, 422);
    for (const item of reply.body.detail) expect(item.loc).toEqual(['body', 'patch']);
    return reply.body.detail;
  }

  const summary = (items: Item[]): [string, string | undefined][] => items.map((item) => [item.type, item.input]);

  it('refuses a path outside allowed_patch_paths', async () => {
    const items = await refused(repo.diff({ 'pack/eval.py': 'SHARD = "train"\n' }));
    expect(summary(items)).toEqual([['patch_path_not_allowed', 'pack/eval.py']]);
    expect(items[0].ctx).toEqual({ path: 'pack/eval.py' });
  });

  it('checks both sides of a rename', async () => {
    const patch = repo.diff({}, [['pack/data/mix.txt', 'pack/mix.txt']]);
    expect(patch).toContain('rename from pack/data/mix.txt');
    expect(summary(await refused(patch))).toEqual([['patch_path_not_allowed', 'pack/mix.txt']]);
  });

  it('refuses Python bytecode even inside an allowed directory', async () => {
    const items = await refused(repo.diff({ 'pack/data/__pycache__/mix.cpython-311.pyc': 'not really bytecode\n', 'pack/data/x.pyo': 'x\n' }));
    expect(summary(items)).toEqual([
      ['patch_bytecode', 'pack/data/__pycache__/mix.cpython-311.pyc'],
      ['patch_bytecode', 'pack/data/x.pyo'],
    ]);
  });

  it('refuses binary content', async () => {
    const patch = repo.diff({ 'pack/data/img.png': PNG });
    expect(patch).toContain('GIT binary patch');
    expect(summary(await refused(patch))).toEqual([['patch_binary', 'pack/data/img.png']]);
  });

  it('refuses a patch over max_patch_bytes, with the sizes in ctx', async () => {
    const patch = repo.diff({ 'pack/train.py': `${'EPOCHS = 2  # a long comment line\n'.repeat(80)}` });
    const items = await refused(patch);
    expect(summary(items)).toEqual([['patch_too_large', undefined]]);
    expect(items[0].ctx).toEqual({ max_bytes: 2048, actual_bytes: Buffer.byteLength(patch) });
  });

  it('refuses text that is not a unified diff', async () => {
    const items = await refused('please apply my changes\n');
    expect(summary(items)).toEqual([['patch_unparseable', undefined]]);
    expect(items[0].ctx).toMatchObject({ line: 1 });
  });

  it('reports every violation of one patch, one item each', async () => {
    const patch = repo.diff({ 'README.md': '# changed\n', 'pack/eval.py': 'SHARD = 1\n', 'pack/data/y.pyc': PNG });
    expect(summary(await refused(patch)).sort()).toEqual([
      ['patch_binary', 'pack/data/y.pyc'],
      ['patch_bytecode', 'pack/data/y.pyc'],
      ['patch_path_not_allowed', 'README.md'],
      ['patch_path_not_allowed', 'pack/eval.py'],
    ]);
  });

  it('accepts creations, deletions and edits inside the surface on the same claim, which every refusal left active', async () => {
    const patch = repo.diff({ 'pack/train.py': 'EPOCHS = 3\n', 'pack/data/new.txt': 'b\n', 'pack/data/mix.txt': null });
    const reply = await api.submit<SubmissionDto>(alice, { claim_id: claimId, patch });
    expectStatus(reply, 201);
    expect(reply.body.patch).toBe(patch);
  });
});

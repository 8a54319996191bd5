import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, cryptoReady, keypairFromUri } from '@rcs/auth';
import { startCoordinatorProcess, type RunningCoordinator, type TestDatabase } from '@rcs/testing';
import { createCoordinatorTestDatabase } from './harness';
import { runOperatorScript } from './support/operator-script';

/** The "done when": one submission of each competition mode decided over HTTP, the coordinator its own process. */
describe('every competition mode against a running coordinator-api', () => {
  let coordinator: RunningCoordinator<TestDatabase>;
  let validator: BtAuthSigner;

  beforeAll(async () => {
    await cryptoReady();
    validator = new BtAuthSigner(await keypairFromUri('//Alice'));
    coordinator = await startCoordinatorProcess({ validatorHotkey: validator.hotkey, database: await createCoordinatorTestDatabase() });
  }, 120_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  it('runs standard, centerless and peer_evaluation submissions to their decisions', async () => {
    const seed = mnemonicGenerate();
    const run = await runOperatorScript('tools/round/modes.ts', ['--url', coordinator.service.url, '--admin-token', coordinator.adminToken, '--validator-uri', '//Alice', '--miner-seed', seed]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('modes: ok');
    expect(lines.filter((line) => / best /.test(line)).map((line) => line.replace(/ by .*/, '').replace(/ [0-9a-f-]{36}/, ' <id>'))).toEqual([
      'standard: best <id> loss=0.42',
      'centerless: best <id> loss=0.5',
      'centerless: best <id> loss=0.4',
      'peer_evaluation: best <id> loss=0.32',
    ]);
    const [proposer, implementer] = await Promise.all([1, 2].map(async (n) => new BtAuthSigner(await keypairFromUri(`${seed}//miner/${n}`))));
    expect(run.stdout).toContain(`idea reward`);
    expect(run.stdout).toContain(`proposer ${proposer.hotkey}, implementer ${implementer.hotkey}, loss 0.5 -> 0.4`);

    const decided = (await coordinator.db.dataSource.query(
      `SELECT t.competition_mode AS mode, s.status, s.verified_metric_value AS value
       FROM submissions s JOIN tasks t ON t.id = s.task_id ORDER BY s.created_at`,
    )) as { mode: string; status: string; value: number }[];
    expect(decided).toEqual([
      { mode: 'standard', status: 'accepted', value: 0.42 },
      { mode: 'centerless', status: 'accepted', value: 0.5 },
      { mode: 'centerless', status: 'accepted', value: 0.4 },
      { mode: 'peer_evaluation', status: 'accepted', value: 0.32 },
    ]);
    expect(await coordinator.db.dataSource.query(`SELECT validator_hotkey, status FROM verifications ORDER BY created_at`)).toEqual(
      Array.from({ length: 3 }, () => ({ validator_hotkey: validator.hotkey, status: 'accepted' })),
    );
    expect(await coordinator.db.dataSource.query(`SELECT proposer_hotkey, implementer_hotkey FROM idea_rewards`)).toEqual([
      { proposer_hotkey: proposer.hotkey, implementer_hotkey: implementer.hotkey },
    ]);
    // Its repository is removed at the end: no task of the run is left live for a miner to claim.
    expect(await coordinator.db.dataSource.query(`SELECT DISTINCT task_state FROM tasks`)).toEqual([{ task_state: 'closed' }]);
  });

  it('stops at the first unexpected answer with exit code 1', async () => {
    const run = await runOperatorScript('tools/round/modes.ts', ['--url', coordinator.service.url, '--admin-token', coordinator.adminToken, '--validator-uri', '//Bob']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/scan/);
    expect(run.stderr).toMatch(/403/);
    expect(run.stderr).toMatch(/validator_not_allowlisted/);
  });
});

/**
 * `node -r @swc-node/register tools/round/modes.ts --url U --admin-token T --validator-uri //Alice`:
 * one submission of each competition mode run to its decision against a running coordinator, over
 * HTTP only. standard and centerless go through validator scan and result (centerless: a second
 * miner implements the first one's idea, becomes the new best and earns the idea reward); peer_evaluation
 * through peer evaluations. The validator must be on the coordinator's VALIDATOR_HOTKEYS; miners are
 * derived from a fresh mnemonic unless --miner-seed is given (the coordinator's stake gate must admit
 * them). Exit 0 when every step answered as expected, 1 otherwise, 2 on bad usage.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { createRepository, expectField, git, Json, RoundClient, RoundStepError, stringField, TRAIN_PY } from './round';
import { requiredAdminToken, runCli, stackTarget } from './cli';

const HELP = `Usage: node -r @swc-node/register tools/round/modes.ts --url URL --admin-token TOKEN [--validator-uri URI] [--miner-seed SEED]

  --url            coordinator base URL (default: $COORDINATOR_URL, else the running stack's DATA_DIR/stack.json, else http://127.0.0.1:8000)
  --admin-token    an X-Admin-Token the coordinator accepts (default: the first of $ADMIN_TOKENS, else the running stack's)
  --validator-uri  an allowlisted validator hotkey as a secret URI or mnemonic (default: //Alice)
  --miner-seed     mnemonic the miner hotkeys derive from (//miner/1..3; default: a fresh one)`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  'validator-uri': { type: 'string', default: '//Alice' },
  'miner-seed': { type: 'string' },
} as const;

/** A private value the validator must receive in its replay spec, and nobody else. */
const BENCHMARK_ENV = { HELDOUT_SHARD: 'modes-heldout-shard' };

interface Cast {
  validator: BtAuthSigner;
  miners: [BtAuthSigner, BtAuthSigner, BtAuthSigner];
}

class ModesRun {
  /** The tasks this run created: closed at its end, since their repository goes with it. */
  private readonly created: string[] = [];

  constructor(
    private readonly api: RoundClient,
    private readonly cast: Cast,
    private readonly repo: string,
    private readonly baseRef: string,
    private readonly log: (line: string) => void,
  ) {}

  async standard(): Promise<void> {
    const task = await this.createTask('standard', {});
    const submission = await this.submit('standard', task, this.cast.miners[0], { learningRate: '0.05', claimedLoss: 0.1 });
    await this.replay('standard', task, submission, 0.42);
    await this.best('standard', task, submission, 0.42);
  }

  async centerless(): Promise<void> {
    const [proposer, implementer] = this.cast.miners;
    const task = await this.createTask('centerless', {});
    const idea = await this.submit('centerless', task, proposer, {
      learningRate: '0.05',
      claimedLoss: 0.5,
      proposedIdea: 'Warm up the learning rate over the first 100 steps.',
    });
    await this.replay('centerless', task, idea, 0.5);
    await this.best('centerless', task, idea, 0.5);
    const implementation = await this.submit('centerless', task, implementer, {
      learningRate: '0.08',
      claimedLoss: 0.3,
      proposedIdea: 'Decay the learning rate with a cosine schedule.',
      implements: idea,
    });
    await this.replay('centerless', task, implementation, 0.4);
    await this.best('centerless', task, implementation, 0.4);

    const rewards = await this.api.send('idea rewards', 'GET', `/api/v1/idea-rewards?task_id=${task}`, 200, { auth: 'none' });
    if (!Array.isArray(rewards) || rewards.length !== 1) {
      throw new RoundStepError('idea rewards', 200, JSON.stringify(rewards), 'expected exactly one idea reward');
    }
    const reward = rewards[0] as Json;
    expectField('idea rewards', reward, 'idea_submission_id', idea);
    expectField('idea rewards', reward, 'improved_submission_id', implementation);
    expectField('idea rewards', reward, 'proposer_hotkey', proposer.hotkey);
    expectField('idea rewards', reward, 'implementer_hotkey', implementer.hotkey);
    expectField('idea rewards', reward, 'previous_metric_value', 0.5);
    expectField('idea rewards', reward, 'improved_metric_value', 0.4);
    expectNear('idea rewards', reward, 'improvement_amount', 0.1);
    this.log(
      `centerless: idea reward ${stringField('idea rewards', reward, 'id')}: proposer ${proposer.hotkey}, implementer ${implementer.hotkey}, ` +
        `loss ${String(reward.previous_metric_value)} -> ${String(reward.improved_metric_value)}, improvement ${String(reward.improvement_amount)}`,
    );
  }

  async peerEvaluation(): Promise<void> {
    const [owner, ...evaluators] = this.cast.miners;
    const task = await this.createTask('peer_evaluation', { min_peer_evaluations: evaluators.length });
    const submission = await this.submit('peer_evaluation', task, owner, { learningRate: '0.05', claimedLoss: 0.2 });
    const losses = [0.3, 0.34];
    for (const [index, evaluator] of evaluators.entries()) {
      const evaluation = await this.api.send('peer evaluate', 'POST', `/api/v1/submissions/${submission}/peer-evaluate`, 200, {
        auth: 'signed',
        signer: evaluator,
        body: { status: 'accepted', observed_metrics: { loss: losses[index] }, notes: 'Replayed locally.' },
      });
      expectField('peer evaluate', evaluation, 'status', 'accepted');
      this.log(`peer_evaluation: evaluation ${stringField('peer evaluate', evaluation, 'id')} by ${evaluator.hotkey}: accepted loss=${losses[index]}`);
    }
    const consensus = await this.api.send('peer consensus', 'GET', `/api/v1/submissions/${submission}/peer-consensus`, 200, { auth: 'none' });
    expectField('peer consensus', consensus, 'status', 'accepted');
    expectField('peer consensus', consensus, 'accepted_count', evaluators.length);
    expectNear('peer consensus', consensus, 'consensus_metric_value', 0.32);
    this.log(
      `peer_evaluation: consensus accepted loss=${String(consensus.consensus_metric_value)} ` +
        `(${String(consensus.accepted_count)} of threshold ${String(consensus.threshold)})`,
    );
    await this.best('peer_evaluation', task, submission, Number(consensus.consensus_metric_value));
    const rewards = await this.api.send('idea rewards', 'GET', `/api/v1/idea-rewards?task_id=${task}`, 200, { auth: 'none' });
    this.log(`peer_evaluation: idea rewards ${Array.isArray(rewards) ? rewards.length : 'unreadable'}`);
  }

  private async createTask(mode: string, fields: Json): Promise<string> {
    const task = await this.api.send(`create ${mode} task`, 'POST', '/api/v1/tasks', 201, {
      auth: 'admin',
      body: {
        slug: `modes-${mode.replace('_', '-')}-${randomBytes(4).toString('hex')}`,
        title: `Scripted ${mode} round`,
        brief: 'Lower the loss of train.py.',
        repository: `file://${this.repo}`,
        base_ref: this.baseRef,
        benchmark_command: 'python3 train.py',
        result_path: 'result.json',
        allowed_patch_paths: ['train.py'],
        metric_name: 'loss',
        metric_direction: 'minimize',
        competition_mode: mode,
        time_budget_seconds: 600,
        validator_benchmark_env: BENCHMARK_ENV,
        ...fields,
      },
    });
    const taskId = stringField(`create ${mode} task`, task, 'id');
    this.created.push(taskId);
    const published = await this.api.send('read task', 'GET', `/api/v1/tasks/${taskId}`, 200, { auth: 'none' });
    if (JSON.stringify(published).includes(BENCHMARK_ENV.HELDOUT_SHARD)) {
      throw new RoundStepError('read task', 200, JSON.stringify(published), 'the public task shows the validator benchmark env');
    }
    this.log(`${mode}: task ${taskId} (${String(task.slug)})`);
    return taskId;
  }

  /** Claims the task as `miner` and submits a real `git diff --binary` patch; answers the submission id. */
  private async submit(
    mode: string,
    taskId: string,
    miner: BtAuthSigner,
    change: { learningRate: string; claimedLoss: number; proposedIdea?: string; implements?: string },
  ): Promise<string> {
    const claim = await this.api.send('claim task', 'POST', `/api/v1/tasks/${taskId}/claim`, 201, {
      auth: 'signed',
      signer: miner,
      body: { claim_description: `Scripted ${mode} round: learning rate ${change.learningRate}.` },
    });
    writeFileSync(join(this.repo, 'train.py'), TRAIN_PY.replace('0.01', change.learningRate));
    const patch = git(this.repo, 'diff', '--binary');
    git(this.repo, 'checkout', '--', 'train.py');
    const submission = await this.api.send('submit', 'POST', '/api/v1/submissions', 201, {
      auth: 'signed',
      signer: miner,
      body: {
        claim_id: stringField('claim task', claim, 'id'),
        base_ref: this.baseRef,
        patch,
        summary: `Learning rate 0.01 -> ${change.learningRate}.`,
        claimed_metrics: { loss: change.claimedLoss },
        ...(change.proposedIdea === undefined ? {} : { proposed_idea: change.proposedIdea }),
        ...(change.implements === undefined ? {} : { implemented_submission_id: change.implements }),
      },
    });
    expectField('submit', submission, 'status', 'pending_verification');
    const submissionId = stringField('submit', submission, 'id');
    this.log(`${mode}: submission ${submissionId} by ${miner.hotkey} (claimed loss=${change.claimedLoss})`);
    return submissionId;
  }

  /** The validator scans the task, finds the submission's job and posts the observed loss. */
  private async replay(mode: string, taskId: string, submissionId: string, observedLoss: number): Promise<void> {
    const scan = await this.api.send('scan', 'POST', '/api/v1/validator/submissions/scan', 200, {
      auth: 'signed',
      signer: this.cast.validator,
      body: { task_id: taskId, limit: 16 },
    });
    const jobs = Array.isArray(scan.jobs) ? (scan.jobs as Json[]) : [];
    const job = jobs.find((candidate) => candidate.submission_id === submissionId);
    if (!job) throw new RoundStepError('scan', 200, JSON.stringify(scan), `the scan did not lease the job of submission ${submissionId}`);
    const spec = job.replay_spec as Json;
    if (JSON.stringify(spec.validator_benchmark_env) !== JSON.stringify(BENCHMARK_ENV)) {
      throw new RoundStepError('scan', 200, JSON.stringify(spec), 'the replay spec lacks the validator benchmark env');
    }
    const jobId = stringField('scan', job, 'job_id');
    this.log(`${mode}: job ${jobId} leased until ${String(job.lease_expires_at)}`);
    const verification = await this.api.send('result', 'POST', `/api/v1/validator/jobs/${jobId}/result`, 200, {
      auth: 'signed',
      signer: this.cast.validator,
      body: {
        status: 'accepted',
        observed_metrics: { loss: observedLoss },
        notes: 'Scripted replay.',
        replay_log: `replayed ${submissionId}\nloss=${observedLoss}\n`,
        submission_id: submissionId,
      },
    });
    expectField('result', verification, 'status', 'accepted');
    expectField('result', verification, 'metric_value', observedLoss);
    this.log(`${mode}: verification ${stringField('result', verification, 'id')} accepted loss=${observedLoss}`);
  }

  /** Closes every task the run created, so none is left live on a removed repository for a miner to claim. */
  async closeTasks(): Promise<void> {
    for (const task of this.created.splice(0)) {
      await this.api.send('close task', 'POST', `/api/v1/tasks/${task}/close`, 200, { auth: 'admin' });
      this.log(`closed: task ${task}`);
    }
  }

  private async best(mode: string, taskId: string, submissionId: string, loss: number): Promise<void> {
    const best = await this.api.send('best result', 'GET', `/api/v1/tasks/${taskId}/best`, 200, { auth: 'none' });
    expectField('best result', best, 'submission_id', submissionId);
    expectNear('best result', best, 'metric_value', loss);
    this.log(`${mode}: best ${submissionId} loss=${String(best.metric_value)} by ${String(best.miner_hotkey)}`);
  }
}

function expectNear(step: string, body: Json, field: string, expected: number): void {
  const value = body[field];
  if (typeof value !== 'number' || Math.abs(value - expected) > 1e-9) {
    throw new RoundStepError(step, 0, JSON.stringify(body), `expected "${field}" to be ${expected}`);
  }
}

runCli('modes', HELP, OPTIONS, async (values) => {
  const target = stackTarget({ url: values.url, adminToken: values['admin-token'] });
  const adminToken = requiredAdminToken(target.adminToken);
  const seed = values['miner-seed'] ?? mnemonicGenerate();
  const [validator, ...miners] = await Promise.all(
    [values['validator-uri'], `${seed}//miner/1`, `${seed}//miner/2`, `${seed}//miner/3`].map(async (uri) => new BtAuthSigner(await keypairFromUri(uri))),
  );
  const cast: Cast = { validator, miners: [miners[0], miners[1], miners[2]] };
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  const repo = mkdtempSync(join(tmpdir(), 'rcs-modes-'));
  try {
    const baseRef = createRepository(repo);
    log(`repository: ${repo} at ${baseRef}`);
    const run = new ModesRun(new RoundClient(target.coordinatorUrl, adminToken, validator), cast, repo, baseRef, log);
    try {
      await run.standard();
      await run.centerless();
      await run.peerEvaluation();
    } finally {
      await run.closeTasks();
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
  log('modes: ok');
});

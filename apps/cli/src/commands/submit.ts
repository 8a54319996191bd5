import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { artifactDigest, ProgressBar } from '../artifact/artifact-digest';
import type { GlobalArgs } from '../context';
import { CliUsageError } from '../errors';
import { readSidecar } from '../miner/sidecar';
import { prepareSubmission } from '../miner/submission';
import { fields } from '../output/io';
import type { Handle } from './handle';

export function submitCommand(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  return yargs.command(
    'submit',
    "Submit on your claim: the patch is git diff --binary of --repo's working tree against the task's base",
    (y) =>
      y
        .option('claim', { type: 'string', demandOption: true, describe: 'Your active claim' })
        .option('task', { type: 'string', describe: "The claim's task (read from the claim when omitted)" })
        .option('repo', { type: 'string', describe: 'Your clone of the task repository (default: the current directory)' })
        .option('artifact-only', { type: 'boolean', default: false, describe: 'Send no patch, only the artifact' })
        .option('sidecar', { type: 'string', describe: "A BitSota submission.json: summary, claimed_metrics, base_ref, proposed_idea, … (flags win)" })
        .option('summary', { type: 'string', describe: 'What you changed and why (or the sidecar’s summary)' })
        .option('metric', { type: 'array', string: true, default: [] as string[], describe: 'Claimed metric, NAME=VALUE (repeatable; added to the sidecar’s)' })
        .option('idea', { type: 'string', describe: 'proposed_idea (centerless tasks require one; rcs ideas <task> lists the others)' })
        .option('implements', { type: 'string', describe: "implemented_submission_id: another miner's idea you implemented" })
        .option('log', { type: 'string', describe: 'A file with your execution log' })
        .option('artifact', { type: 'string', describe: 'A local artifact file: its SHA-256 and size are computed here' })
        .option('artifact-uri', { type: 'string', describe: 'Where validators download the artifact (https://)' }),
    handle(async (ctx, args) => {
      const { sidecar, ignored } = args.sidecar === undefined ? { sidecar: {}, ignored: [] } : readSidecar(args.sidecar);
      if (ignored.length > 0) ctx.note(`rcs: the sidecar's ${ignored.join(', ')} are not submission fields; not sent`);
      if (sidecar.notes !== undefined) ctx.note("rcs: the sidecar's notes stay local: this coordinator's submissions have no notes field");
      const summary = args.summary ?? sidecar.summary;
      if (summary === undefined) throw new CliUsageError('give --summary (or a --sidecar with a summary)');
      const artifactUri = args['artifact-uri'] ?? sidecar.artifact_uri;
      if ((args.artifact === undefined) !== (artifactUri === undefined)) throw new CliUsageError('--artifact and --artifact-uri (or the sidecar’s artifact_uri) go together: the SHA-256 and size are computed from the local file');
      let artifact: { uri: string; sha256: string; sizeBytes: number } | undefined;
      if (args.artifact !== undefined && artifactUri !== undefined) {
        const digest = await artifactDigest(args.artifact, (total) => new ProgressBar((text) => ctx.io.stderr(text), ctx.io.stderrIsTty, 'sha256', total));
        artifact = { uri: artifactUri, sha256: digest.sha256, sizeBytes: digest.sizeBytes };
        ctx.note(`artifact: ${digest.sizeBytes} bytes, sha256 ${digest.sha256}`);
      }
      const api = await ctx.coordinator({ signed: true });
      const logFile = args.log === undefined ? undefined : readLocal(args.log, '--log');
      const prepared = await prepareSubmission(api, {
        claimId: args.claim,
        taskId: args.task,
        source: args['artifact-only'] ? { kind: 'none' } : { kind: 'tree', repo: resolve(args.repo ?? '.') },
        summary,
        claimedMetrics: { ...(sidecar.claimed_metrics ?? {}), ...parseMetrics(args.metric) },
        baseRef: sidecar.base_ref,
        proposedIdea: args.idea ?? sidecar.proposed_idea,
        implementedSubmissionId: args.implements ?? sidecar.implemented_submission_id,
        executionLog: logFile ?? sidecar.execution_log,
        artifact,
      });
      if (prepared.body.patch !== undefined) {
        ctx.note(`patch: ${Buffer.byteLength(prepared.body.patch)} bytes, ${prepared.files.length} file(s) against ${prepared.task.base_ref}: ${prepared.files.join(', ')}`);
      }
      const submission = await api.submit(prepared.body);
      ctx.print(submission, (s) =>
        fields([
          ['submission', s.id],
          ['status', s.status],
          ['next', `rcs watch ${s.id}`],
        ]),
      );
    }),
  );
}

/** `NAME=VALUE` pairs; numbers stay numbers. */
export function parseMetrics(pairs: string[]): Record<string, number> {
  const metrics: Record<string, number> = {};
  for (const pair of pairs) {
    const match = /^([^=]+)=(.+)$/.exec(pair);
    const value = match ? Number(match[2]) : NaN;
    if (!match || !Number.isFinite(value)) throw new CliUsageError(`--metric ${pair}: expected NAME=NUMBER`);
    metrics[match[1].trim()] = value;
  }
  return metrics;
}

export function readLocal(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

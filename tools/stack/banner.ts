/** What `npm start` prints once every service answers: where to look, how to act as the operator, and "ready" last. */
export interface BannerService {
  name: string;
  url: string;
}

export interface BannerInput {
  services: BannerService[];
  webUrl: string;
  /** Whether something answered at `webUrl`. */
  webAnswers: boolean;
  generatedAdminToken: string | null;
  chain: string;
  stakeCheck: string;
  redis: string;
  validators: string | null;
  sandbox: string;
  runnerSkipped: string | null;
  statePath: string;
}

const PAD = 17;

/** Routes worth a click, per service, besides its docs. */
const EXTRA_LINKS: Record<string, [string, string][]> = {
  'coordinator-api': [
    ['dashboard', '/api/v1/dashboard'],
    ['events', '/api/v1/events'],
  ],
  'pool-service': [
    ['leaderboard', '/api/v1/miners/leaderboard'],
    ['events', '/api/v1/events'],
  ],
};

export function banner(input: BannerInput): string {
  const lines = ['', `  ${'web UI'.padEnd(PAD)} ${input.webUrl}${input.webAnswers ? '' : '  (not answering)'}`, ''];
  for (const service of input.services) {
    lines.push(`  ${service.name.padEnd(PAD)} ${service.url}`);
    const links = [['docs', '/docs'], ...(EXTRA_LINKS[service.name] ?? [])].map(([name, path]) => `${name} ${service.url}${path}`);
    lines.push(`  ${''.padEnd(PAD)} ${links.join('  ·  ')}`);
  }
  if (input.runnerSkipped) {
    lines.push(`  ${'validator-runner'.padEnd(PAD)} NOT STARTED: ${input.runnerSkipped}`);
    lines.push(`  ${''.padEnd(PAD)} validator jobs wait until a runner runs; start the stack again once it is installed`);
  }
  lines.push('');
  lines.push(input.generatedAdminToken ? `  admin token (X-Admin-Token): ${input.generatedAdminToken}` : '  admin token: from ADMIN_TOKENS');
  lines.push(`  chain: ${input.chain}   stake check: ${input.stakeCheck}   redis: ${input.redis}`);
  if (input.validators) lines.push(`  validators: ${input.validators}   sandbox: ${input.sandbox}`);
  lines.push('  every service: /metrics (Prometheus), / (an index of its links); LOG_LEVEL=debug shows the polling');
  lines.push(`  npm run demo runs a whole round against this stack (${input.statePath})`);
  lines.push('  Ctrl-C stops everything.', '', 'stack: ready', '');
  return lines.join('\n');
}

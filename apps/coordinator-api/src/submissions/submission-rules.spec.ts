import { CompetitionMode, CreateSubmissionDto, SubmissionStatus } from '@rcs/contracts';
import { artifactUriViolation, IdeaRuleContext, ideaViolations, submissionBodyViolations } from './submission-rules';

const SHA = 'ab'.repeat(32);
const PATCH = 'diff --git a/x b/x\n';

function body(fields: Partial<CreateSubmissionDto> = {}): CreateSubmissionDto {
  return Object.assign(new CreateSubmissionDto(), { claim_id: 'c', base_ref: 'main', summary: 's', ...fields });
}

const secure = { allowInsecureArtifactUris: false };

describe('submissionBodyViolations', () => {
  it('needs a patch or an artifact', () => {
    expect(submissionBodyViolations(body(), secure)).toEqual([
      expect.objectContaining({ type: 'patch_or_artifact_required', loc: ['body'] }),
    ]);
    expect(submissionBodyViolations(body({ patch: PATCH }), secure)).toEqual([]);
    expect(
      submissionBodyViolations(body({ artifact_uri: 'https://cdn.test/a.bin', artifact_sha256: SHA, artifact_size_bytes: 0 }), secure),
    ).toEqual([]);
  });

  it('requires sha256 and size with an artifact_uri, one item each', () => {
    expect(submissionBodyViolations(body({ artifact_uri: 'https://cdn.test/a.bin' }), secure)).toEqual([
      expect.objectContaining({ type: 'missing', loc: ['body', 'artifact_sha256'] }),
      expect.objectContaining({ type: 'missing', loc: ['body', 'artifact_size_bytes'] }),
    ]);
  });

  it.each([
    ['sha256', { artifact_sha256: SHA }],
    ['size', { artifact_size_bytes: 10 }],
  ])('refuses artifact %s without artifact_uri', (_name, fields) => {
    expect(submissionBodyViolations(body({ patch: PATCH, ...fields }), secure)).toEqual([
      expect.objectContaining({ type: 'missing', loc: ['body', 'artifact_uri'] }),
    ]);
  });

  it('reports every violation of one body together', () => {
    const items = submissionBodyViolations(body({ artifact_uri: 'ftp://cdn.test/a' }), secure);
    expect(items.map((item) => [item.type, item.loc.join('.')])).toEqual([
      ['url_scheme', 'body.artifact_uri'],
      ['missing', 'body.artifact_sha256'],
      ['missing', 'body.artifact_size_bytes'],
    ]);
  });
});

describe('artifactUriViolation', () => {
  it.each([
    'https://cdn.test/a.bin',
    'HTTPS://cdn.test/a.bin',
    'https://cdn.test:8443/path/a.bin?sig=1#f',
    'https://93.184.216.34/a',
  ])('accepts %s', (uri) => expect(artifactUriViolation(uri, false)).toBeNull());

  it.each([
    ['http://cdn.test/a', 'url_scheme'],
    ['ftp://cdn.test/a', 'url_scheme'],
    ['file:///etc/passwd', 'url_scheme'],
    ['not a url', 'url_parsing'],
    ['/relative/path', 'url_parsing'],
    ['cdn.test/a.bin', 'url_parsing'],
    ['https:cdn.test/a', 'url_parsing'],
    ['https:///cdn.test/a', 'url_parsing'],
    ['https://', 'url_parsing'],
    ['https://?q', 'url_parsing'],
    ['https://cdn.test/a b', 'url_parsing'],
    ['https://cdn.test/a\n', 'url_parsing'],
    ['https://exa mple.test/', 'url_parsing'],
    ['https://cdn.test:99999/a', 'url_parsing'],
    ['https://user:pass@cdn.test/a', 'url_credentials'],
    ['https://token@cdn.test/a', 'url_credentials'],
    ['https://169.254.169.254/latest/meta-data/', 'url_host'],
    ['https://127.0.0.1/a', 'url_host'],
    ['https://[::1]/a', 'url_host'],
    ['https://0x7f000001/a', 'url_host'],
    ['https://2130706433/a', 'url_host'],
    ['https://10.0.0.8/a', 'url_host'],
    ['https://localhost:8443/a', 'url_host'],
    ['https://metadata.google.internal/a', 'url_host'],
  ])('refuses %j with %s', (uri, type) => {
    expect(artifactUriViolation(uri, false)).toMatchObject({ type, loc: ['body', 'artifact_uri'], input: uri });
  });

  it('names the refused host and why', () => {
    expect(artifactUriViolation('https://0x7f000001/a', false)).toMatchObject({ ctx: { host: '127.0.0.1', reason: 'loopback' } });
    expect(artifactUriViolation('https://localhost/a', false)).toMatchObject({ ctx: { host: 'localhost', reason: 'local_name' } });
  });

  it('accepts local hosts only when insecure URIs are allowed, and credentials never', () => {
    expect(artifactUriViolation('https://127.0.0.1/a', true)).toBeNull();
    expect(artifactUriViolation('https://localhost/a', true)).toBeNull();
    expect(artifactUriViolation('https://u:p@localhost/a', true)).toMatchObject({ type: 'url_credentials' });
  });

  it('accepts http:// only when insecure URIs are allowed', () => {
    expect(artifactUriViolation('http://127.0.0.1:9000/a', true)).toBeNull();
    expect(artifactUriViolation('ftp://127.0.0.1/a', true)).toMatchObject({ type: 'url_scheme', ctx: { expected_schemes: "'https' or 'http'" } });
  });
});

describe('ideaViolations', () => {
  const ME = 'miner-a';
  const OTHER = 'miner-b';
  const TASK = 'task-1';
  const idea = { taskId: TASK, minerHotkey: OTHER, proposedIdea: 'use a cosine schedule', status: SubmissionStatus.PendingVerification };

  function context(fields: Partial<IdeaRuleContext> = {}): IdeaRuleContext {
    return { mode: CompetitionMode.Centerless, taskId: TASK, minerHotkey: ME, implementableIdeas: [], implemented: null, ...fields };
  }

  const cases: [string, Partial<CreateSubmissionDto>, Partial<IdeaRuleContext>, [string, string | undefined][]][] = [
    ['centerless: the first idea needs no reference', { proposed_idea: 'idea' }, {}, []],
    ['centerless: proposed_idea missing', {}, {}, [['proposed_idea_required', undefined]]],
    ['centerless: blank proposed_idea', { proposed_idea: ' \n\t' }, {}, [['proposed_idea_required', undefined]]],
    ['centerless: another idea exists, no reference', { proposed_idea: 'idea' }, { implementableIdeas: ['idea-1'] }, [['implemented_submission_required', undefined]]],
    ['centerless: both missing', {}, { implementableIdeas: ['idea-1'] }, [['proposed_idea_required', undefined], ['implemented_submission_required', undefined]]],
    ['centerless: valid reference', { proposed_idea: 'idea', implemented_submission_id: 'x' }, { implementableIdeas: ['idea-1'], implemented: idea }, []],
    ['centerless: errored reference is still an idea', { proposed_idea: 'idea', implemented_submission_id: 'x' }, { implemented: { ...idea, status: SubmissionStatus.Error } }, []],
    ['centerless: unknown reference', { proposed_idea: 'idea', implemented_submission_id: 'x' }, {}, [['implemented_submission_invalid', 'not_found']]],
    ['centerless: other task', { proposed_idea: 'idea', implemented_submission_id: 'x' }, { implemented: { ...idea, taskId: 'task-2' } }, [['implemented_submission_invalid', 'other_task']]],
    ['centerless: own submission', { proposed_idea: 'idea', implemented_submission_id: 'x' }, { implemented: { ...idea, minerHotkey: ME } }, [['implemented_submission_invalid', 'own_submission']]],
    ['centerless: reference without idea', { proposed_idea: 'idea', implemented_submission_id: 'x' }, { implemented: { ...idea, proposedIdea: null } }, [['implemented_submission_invalid', 'no_idea']]],
    ['centerless: rejected reference', { proposed_idea: 'idea', implemented_submission_id: 'x' }, { implemented: { ...idea, status: SubmissionStatus.Rejected } }, [['implemented_submission_invalid', 'rejected']]],
    ['standard: nothing required', {}, { mode: CompetitionMode.Standard, implementableIdeas: ['idea-1'] }, []],
    ['standard: own earlier submission is fine', { implemented_submission_id: 'x' }, { mode: CompetitionMode.Standard, implemented: { ...idea, minerHotkey: ME, proposedIdea: null } }, []],
    ['standard: unknown reference', { implemented_submission_id: 'x' }, { mode: CompetitionMode.Standard }, [['implemented_submission_invalid', 'not_found']]],
    ['peer_evaluation: other task', { implemented_submission_id: 'x' }, { mode: CompetitionMode.PeerEvaluation, implemented: { ...idea, taskId: 'task-2' } }, [['implemented_submission_invalid', 'other_task']]],
  ];

  it.each(cases)('%s', (_name, fields, ctx, expected) => {
    const items = ideaViolations(body({ patch: PATCH, ...fields }), context(ctx));
    expect(items.map((item) => [item.type, item.ctx?.reason])).toEqual(expected);
    for (const item of items) {
      expect(item.loc[0]).toBe('body');
      expect(['proposed_idea', 'implemented_submission_id']).toContain(item.loc[1]);
    }
  });
});

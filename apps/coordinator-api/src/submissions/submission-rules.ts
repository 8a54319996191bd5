import { CompetitionMode, CreateSubmissionDto, SubmissionStatus, ValidationErrorItem } from '@rcs/contracts';
import { artifactUriProblem, missingItem, validationItem } from '@rcs/http';
import { hasIdeaRules } from '../tasks/competition-modes';

/** 422 `type`s of the submission rules that no DTO decorator can state (DECISIONS.md §5). */
export const SubmissionRule = {
  PatchOrArtifactRequired: 'patch_or_artifact_required',
  UrlParsing: 'url_parsing',
  UrlScheme: 'url_scheme',
  UrlCredentials: 'url_credentials',
  UrlHost: 'url_host',
  ProposedIdeaRequired: 'proposed_idea_required',
  ImplementedSubmissionRequired: 'implemented_submission_required',
  ImplementedSubmissionInvalid: 'implemented_submission_invalid',
} as const;

/** Why `implemented_submission_id` names no submission this one may implement (`ctx.reason`). */
export type ImplementedSubmissionProblem = 'not_found' | 'other_task' | 'own_submission' | 'no_idea' | 'rejected';

const ARTIFACT_URI = ['body', 'artifact_uri'];
const IMPLEMENTED = ['body', 'implemented_submission_id'];
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/**
 * The rules on the body alone: a non-empty patch or an artifact (or both), and artifact fields that
 * are complete and well-formed. One item per violation. (U+0000 is refused for every route by the pipe.)
 */
export function submissionBodyViolations(body: CreateSubmissionDto, options: { allowInsecureArtifactUris: boolean }): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  if (body.patch === '' && body.artifact_uri === null) {
    items.push(
      validationItem(SubmissionRule.PatchOrArtifactRequired, ['body'], 'A submission needs a non-empty patch or an artifact_uri (or both).'),
    );
  }
  if (body.artifact_uri === null) {
    if (body.artifact_sha256 !== null || body.artifact_size_bytes !== null) {
      items.push({ ...missingItem(ARTIFACT_URI), msg: 'artifact_sha256 and artifact_size_bytes describe an artifact: artifact_uri is required with them.' });
    }
    return items;
  }
  const uriProblem = artifactUriViolation(body.artifact_uri, options.allowInsecureArtifactUris);
  if (uriProblem) items.push(uriProblem);
  if (body.artifact_sha256 === null) {
    items.push({ ...missingItem(['body', 'artifact_sha256']), msg: 'artifact_uri requires artifact_sha256, the SHA-256 of the artifact bytes.' });
  }
  if (body.artifact_size_bytes === null) {
    items.push({ ...missingItem(['body', 'artifact_size_bytes']), msg: 'artifact_uri requires artifact_size_bytes, the byte size of the artifact.' });
  }
  return items;
}

/** An absolute `https://host/…` URL (also `http://` on local stacks), written out as validators will fetch it. */
export function artifactUriViolation(uri: string, allowInsecure: boolean): ValidationErrorItem | null {
  const schemes = allowInsecure ? ['https', 'http'] : ['https'];
  const invalid = (reason: string): ValidationErrorItem =>
    validationItem(SubmissionRule.UrlParsing, ARTIFACT_URI, `Input should be a valid absolute URL, ${reason}`, uri, { error: reason });
  if (WHITESPACE_OR_CONTROL.test(uri)) return invalid('whitespace and control characters are not allowed');
  const scheme = SCHEME.exec(uri)?.[1]?.toLowerCase();
  if (scheme === undefined) return invalid('relative URL without a base');
  if (!schemes.includes(scheme)) {
    const expected = schemes.map((s) => `'${s}'`).join(' or ');
    return validationItem(SubmissionRule.UrlScheme, ARTIFACT_URI, `URL scheme should be ${expected}`, uri, { expected_schemes: expected });
  }
  // WHATWG parsing forgives `https:host` and `https:///host`; a downloadable URI spells out its authority.
  const afterScheme = uri.slice(scheme.length + 1);
  if (!afterScheme.startsWith('//')) return invalid('expected "//" after the scheme');
  if (afterScheme.length === 2 || '/?#'.includes(afterScheme.charAt(2))) return invalid('empty host');
  if (!URL.canParse(uri)) return invalid('the URL does not parse');
  return artifactAuthorityViolation(uri, allowInsecure);
}

/**
 * The URI is published with the submission and fetched by every validator: never credentials; a host
 * that names a public place (no loopback, private or link-local address literal, no `localhost`),
 * unless `ALLOW_INSECURE_ARTIFACT_URIS` (local stacks).
 */
function artifactAuthorityViolation(uri: string, allowInsecure: boolean): ValidationErrorItem | null {
  const problem = artifactUriProblem(uri);
  if (problem === null) return null;
  if (problem.kind === 'credentials') {
    return validationItem(
      SubmissionRule.UrlCredentials,
      ARTIFACT_URI,
      'URL should not carry credentials (user:password@): artifact URIs are published to every validator',
      uri,
    );
  }
  if (allowInsecure) return null;
  return validationItem(
    SubmissionRule.UrlHost,
    ARTIFACT_URI,
    `URL host should be public: ${problem.host} is ${problem.reason === 'local_name' ? 'a local name' : `a ${problem.reason} address`}`,
    uri,
    { host: problem.host, reason: problem.reason },
  );
}

/** What the idea rules need to know beyond the body. */
export interface IdeaRuleContext {
  mode: CompetitionMode;
  taskId: string;
  minerHotkey: string;
  /** Centerless: the ideas of other miners on the task that could be implemented (submission ids, newest first); none: the first idea. */
  implementableIdeas: string[];
  /** The submission `implemented_submission_id` names, when it exists. */
  implemented: { taskId: string; minerHotkey: string; proposedIdea: string | null; status: SubmissionStatus } | null;
}

/**
 * Centerless: every submission proposes a fresh idea and, once another miner has proposed one,
 * names the earlier submission of another miner whose idea it implements (carrying an idea, not
 * rejected). Other modes: a given `implemented_submission_id` must still be a submission of the task.
 */
export function ideaViolations(body: CreateSubmissionDto, context: IdeaRuleContext): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  const centerless = hasIdeaRules(context.mode);
  if (centerless && !hasIdea(body.proposed_idea)) {
    items.push(
      validationItem(SubmissionRule.ProposedIdeaRequired, ['body', 'proposed_idea'], 'Centerless tasks need a fresh proposed_idea on every submission.', body.proposed_idea),
    );
  }
  const implementedId = body.implemented_submission_id;
  if (implementedId === null) {
    const ideas = context.implementableIdeas;
    if (centerless && ideas.length > 0) {
      items.push(
        validationItem(
          SubmissionRule.ImplementedSubmissionRequired,
          IMPLEMENTED,
          "Another miner has proposed an idea on this task: set implemented_submission_id to that miner's earlier submission whose idea you implemented." +
            ` Ideas that can be implemented (submission ids, newest first): ${ideas.join(', ')}.`,
          undefined,
          { implementable_submission_ids: ideas },
        ),
      );
    }
    return items;
  }
  const problem = implementedProblem(context, centerless);
  if (problem !== null) {
    items.push(
      validationItem(SubmissionRule.ImplementedSubmissionInvalid, IMPLEMENTED, IMPLEMENTED_MESSAGES[problem], implementedId, { reason: problem }),
    );
  }
  return items;
}

const IMPLEMENTED_MESSAGES: Record<ImplementedSubmissionProblem, string> = {
  not_found: 'implemented_submission_id names no submission.',
  other_task: 'implemented_submission_id names a submission of another task.',
  own_submission: "implemented_submission_id must name another miner's submission, not your own.",
  no_idea: 'implemented_submission_id names a submission that proposed no idea.',
  rejected: 'implemented_submission_id names a rejected submission; its idea is not available.',
};

function implementedProblem(context: IdeaRuleContext, centerless: boolean): ImplementedSubmissionProblem | null {
  const { implemented } = context;
  if (implemented === null) return 'not_found';
  if (implemented.taskId !== context.taskId) return 'other_task';
  if (!centerless) return null;
  if (implemented.minerHotkey === context.minerHotkey) return 'own_submission';
  if (!hasIdea(implemented.proposedIdea)) return 'no_idea';
  if (implemented.status === SubmissionStatus.Rejected) return 'rejected';
  return null;
}

/** An idea is a non-blank text. */
export function hasIdea(idea: string | null): boolean {
  return idea !== null && idea.trim() !== '';
}

import { parseSidecar } from './sidecar';
import { requestPath } from '../commands/signed-request';

describe("BitSota's submission.json sidecar", () => {
  it('reads every field of theirs and names the ones that are not submission fields', () => {
    const fields = {
      summary: 'Cosine schedule.',
      claimed_metrics: { loss: 0.7, model_bytes: 13 },
      base_ref: 'abc',
      proposed_idea: 'idea',
      implemented_submission_id: 'sub',
      artifact_uri: 'https://a.example/w.bin',
      execution_log: 'log',
      notes: 'for me',
    };
    const { sidecar, ignored } = parseSidecar({ ...fields, agent: 'codex' }, 'submission.json');
    expect(sidecar).toEqual(fields);
    expect(ignored).toEqual(['agent']);
    expect(parseSidecar({ summary: 's', proposed_idea: null }, 'f').sidecar).toEqual({ summary: 's' });
  });

  it.each([
    [[], 'must hold a JSON object'],
    [{ summary: 3 }, 'summary must be a string'],
    [{ claimed_metrics: [1] }, 'claimed_metrics must be an object of numbers'],
    [{ claimed_metrics: { loss: '0.7' } }, 'claimed_metrics.loss must be a number'],
  ])('refuses %j: %s', (document, message) => {
    expect(() => parseSidecar(document, 'submission.json')).toThrow(message);
  });
});

describe('rcs signed-request --path and --params-json', () => {
  it('appends the parameters as a query, after any query the path has', () => {
    expect(requestPath('/api/v1/claims', undefined)).toBe('/api/v1/claims');
    expect(requestPath('/api/v1/claims', '{"limit": 5, "status": "active", "task_id": null}')).toBe('/api/v1/claims?limit=5&status=active');
    expect(requestPath('/api/v1/claims?offset=1', '{"limit": 5}')).toBe('/api/v1/claims?offset=1&limit=5');
    expect(requestPath('/x', '{}')).toBe('/x');
  });

  it.each([
    ['api/v1/claims', undefined, 'must start with /'],
    ['/x', '[1]', 'must be a JSON object'],
    ['/x', '{"a": {"b": 1}}', 'a must be a string, a number or a boolean'],
    ['/x', '{', '--params-json is not JSON'],
  ])('refuses %s %s', (path, params, message) => {
    expect(() => requestPath(path, params)).toThrow(message);
  });
});

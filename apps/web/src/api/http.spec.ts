import { errorOf } from './http';
import { parseConfig } from './services';

describe('errorOf', () => {
  it('reads the code and message of a DECISIONS §1 error and the items of a 422', () => {
    expect(errorOf(404, '{"detail":{"error":"task_not_found","message":"no task x"}}')).toMatchObject({ status: 404, code: 'task_not_found', message: 'no task x' });
    expect(errorOf(422, '{"detail":[{"type":"x","loc":["query","limit"],"msg":"limit must be at most 1000"}]}')).toMatchObject({
      code: 'validation_error',
      message: 'limit must be at most 1000',
    });
  });

  it('falls back to the status when the body is no error document', () => {
    expect(errorOf(502, '<html>bad gateway</html>')).toMatchObject({ status: 502, code: 'http_502', message: 'HTTP 502' });
  });
});

describe('parseConfig', () => {
  it('takes both base URLs and refuses a config without one', () => {
    expect(parseConfig({ coordinator: 'http://127.0.0.1:8000', pool: 'https://pool.example' })).toEqual({ coordinator: 'http://127.0.0.1:8000', pool: 'https://pool.example', weightSetter: null, runner: null });
    expect(() => parseConfig({ coordinator: 'http://x' })).toThrow('config.json needs "pool": an http(s) base URL');
    expect(() => parseConfig(null)).toThrow('"coordinator"');
  });

  it('takes the weight setter and the runner when named, and refuses one that is no http(s) URL', () => {
    const both = { coordinator: 'http://c', pool: 'http://p', weight_setter: 'http://127.0.0.1:8200', validator_runner: 'http://127.0.0.1:8100' };
    expect(parseConfig(both)).toMatchObject({ weightSetter: 'http://127.0.0.1:8200', runner: 'http://127.0.0.1:8100' });
    expect(parseConfig({ ...both, weight_setter: null })).toMatchObject({ weightSetter: null });
    expect(() => parseConfig({ ...both, validator_runner: 'ftp://x' })).toThrow('config.json needs "validator_runner": an http(s) base URL');
  });
});

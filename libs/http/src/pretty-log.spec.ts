import { formatLogLine } from './pretty-log';

describe('LOG_FORMAT=pretty lines', () => {
  it('turns a pino JSON line into time, level, service, message and the other fields as key=value', () => {
    const line = JSON.stringify({ level: 30, time: '2026-11-25T10:11:12.345Z', service: 'coordinator-api', name: 'coordinator-api', msg: 'scan loop started', interval_s: 2, coordinator: 'http://127.0.0.1:8000' });
    expect(formatLogLine(line)).toBe('10:11:12.345  INFO   coordinator-api  scan loop started  interval_s=2 coordinator=http://127.0.0.1:8000\n');
  });

  it('shows a request as method, url, status and time, and the Nest context in brackets', () => {
    const line = JSON.stringify({ level: 30, time: 0, service: 'pool-service', reqId: 'r1', req: { method: 'GET', url: '/status' }, res: { statusCode: 200 }, responseTime: 3.14159, msg: 'request completed' });
    expect(formatLogLine(line)).toBe('00:00:00.000  INFO   pool-service  GET /status  200  3.1ms  request completed\n');
    expect(formatLogLine(JSON.stringify({ level: 40, time: 0, service: 's', context: 'Queue', msg: 'slow' }))).toBe('00:00:00.000  WARN   s  [Queue]  slow\n');
  });

  it('prints a stack trace only at error and above; a warning carries the error message alone', () => {
    const err = { type: 'Error', message: 'coordinator unreachable', stack: 'Error: coordinator unreachable\n    at scan (scan.ts:1:1)' };
    const warn = formatLogLine(JSON.stringify({ level: 40, time: 0, service: 's', err, msg: 'scan failed' }));
    expect(warn).toBe('00:00:00.000  WARN   s  scan failed  error="coordinator unreachable"\n');
    const error = formatLogLine(JSON.stringify({ level: 50, time: 0, service: 's', err, msg: 'boom' }));
    expect(error).toContain('\n    Error: coordinator unreachable\n        at scan (scan.ts:1:1)\n');
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(formatLogLine('plain text')).toBe('plain text\n');
  });
});

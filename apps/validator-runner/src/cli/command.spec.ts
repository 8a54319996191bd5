import { parseCommand } from './command';

describe('runner command line', () => {
  it('runs the service by default and knows once and replay', () => {
    expect(parseCommand([])).toEqual({ kind: 'run' });
    expect(parseCommand(['run'])).toEqual({ kind: 'run' });
    expect(parseCommand(['once'])).toEqual({ kind: 'once' });
    expect(parseCommand(['replay', '--job-file', 'job.json'])).toEqual({ kind: 'replay', jobFile: 'job.json' });
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
  });

  it('answers usage problems', () => {
    expect(parseCommand(['replay'])).toEqual({ kind: 'usage', message: 'replay needs --job-file FILE' });
    expect(parseCommand(['once', '--job-file', 'x'])).toEqual({ kind: 'usage', message: '--job-file goes with the replay command' });
    expect(parseCommand(['dance'])).toEqual({ kind: 'usage', message: 'unknown command "dance"' });
    expect(parseCommand(['once', 'twice'])).toEqual({ kind: 'usage', message: 'unexpected arguments: twice' });
    expect(parseCommand(['--nope'])).toMatchObject({ kind: 'usage' });
  });
});

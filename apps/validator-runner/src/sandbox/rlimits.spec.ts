import { nprocEnforcedFor, rlimitOptions } from './rlimits';

const limits = { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1, outputBytes: 4096 };

describe('rlimitOptions', () => {
  it('caps data size and disables core dumps', () => {
    expect(rlimitOptions(limits, { nproc: false })).toEqual(['--data=536870912', '--core=0']);
  });

  it('adds the file size and process count when asked', () => {
    expect(rlimitOptions({ ...limits, fileBytes: 1024 }, { nproc: true })).toEqual([
      '--data=536870912',
      '--core=0',
      '--fsize=1024',
      '--nproc=64',
    ]);
  });
});

describe('nprocEnforcedFor', () => {
  it('is enforced for ordinary users and not for root', () => {
    expect(nprocEnforcedFor(1000)).toBe(true);
    expect(nprocEnforcedFor(0)).toBe(false);
  });
});

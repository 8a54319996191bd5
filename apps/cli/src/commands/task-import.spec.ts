import { ProblemImportError, problemToCreateTask } from './task-import';

const TARGET = { repository: 'https://github.com/AlveusLabs/autoresearch-task-qwen3-27b-ternary-frontier.git', baseRef: 'main' };

/** A problem.yaml in BitSota's agent-skills shape (DECISIONS §15), with `extra` lines appended. */
function problem(extra = ''): string {
  return `slug: qwen3-27b-ternary-frontier
title: Qwen3 27B ternary frontier
version: 3
hardware:
  gpu_count: 1
  gpu_memory_gb: 80
submission_type: artifact
allowed_patch_paths:
  - pack/train.py
setup_command: python3 -m pip --version
benchmark_command: python3 bench.py
result_path: result.json
max_patch_bytes: 262144
timeout_seconds: 21600
objective:
  metric_name: heldout_ppl
  higher_is_better: false
  tie_breakers:
    - metric_name: compressed_bytes
      higher_is_better: false
${extra}`;
}

describe('rcs admin task import (problem.yaml → create-task)', () => {
  it('maps higher_is_better to metric_direction, timeout_seconds to time_budget_seconds and the tie-breaker to the secondary metric', () => {
    expect(problemToCreateTask(problem(), TARGET)).toEqual({
      repository: TARGET.repository,
      base_ref: 'main',
      slug: 'qwen3-27b-ternary-frontier',
      title: 'Qwen3 27B ternary frontier',
      hardware: { gpu_count: 1, gpu_memory_gb: 80 },
      allowed_patch_paths: ['pack/train.py'],
      setup_command: 'python3 -m pip --version',
      benchmark_command: 'python3 bench.py',
      result_path: 'result.json',
      max_patch_bytes: 262144,
      time_budget_seconds: 21600,
      metric_name: 'heldout_ppl',
      metric_direction: 'minimize',
      secondary_metric_name: 'compressed_bytes',
      secondary_metric_direction: 'minimize',
    });
  });

  it.each([
    ['leaderboard: public\n', 'leaderboard has no counterpart in a task'],
    ['', 'objective.acceptance_floor has no counterpart in a task', (text: string) => text.replace('  tie_breakers:', '  acceptance_floor: 330.0\n  tie_breakers:')],
    ['', 'objective.tie_breakers[1] has no counterpart (a task has one secondary metric)', (text: string) => `${text}    - metric_name: latency\n      higher_is_better: false\n`],
    ['', 'submission_type "notebook" has no counterpart (a task takes patches and artifacts)', (text: string) => text.replace('submission_type: artifact', 'submission_type: notebook')],
    ['', 'hardware has no counterpart unless it is {gpu_count, gpu_memory_gb}', (text: string) => text.replace('hardware:\n  gpu_count: 1\n  gpu_memory_gb: 80', 'hardware: 1xH100')],
    ['', 'objective.higher_is_better must be true or false', (text: string) => text.replace('  higher_is_better: false\n  tie', '  higher_is_better: lower\n  tie')],
    ['', 'timeout_seconds is missing', (text: string) => text.replace('timeout_seconds: 21600\n', '')],
  ])('refuses what has no counterpart, naming the field (%#)', (extra, message, edit = (text: string) => text) => {
    expect(() => problemToCreateTask(edit(problem(extra)), TARGET)).toThrow(new ProblemImportError(message));
  });

  it('refuses a file that is not a YAML mapping', () => {
    expect(() => problemToCreateTask('- a\n- b\n', TARGET)).toThrow('the file is not a YAML mapping of problem fields');
    expect(() => problemToCreateTask('slug: [unclosed\n', TARGET)).toThrow(/^the file is not YAML: /);
  });
});

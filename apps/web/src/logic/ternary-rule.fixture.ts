import { taskRule } from './task-rule';

/** The demo's ternary task's rule, for the logic tests: heldout_ppl in a 0.02-nat log band, compressed_bytes deciding inside it. */
export const TERNARY_RULE = taskRule({
  metric_name: 'heldout_ppl',
  metric_direction: 'minimize',
  metric_resolution: 0.02,
  metric_resolution_mode: 'log',
  ranking_mode: 'scalar',
  secondary_metric_name: 'compressed_bytes',
  secondary_metric_direction: 'minimize',
} as never);

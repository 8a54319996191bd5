import { callService } from '@rcs/testing';

export type Json = Record<string, unknown>;

/** One JSON request; admin-token or BT-AUTH-V1 signed (the exact text sent is the text signed). */
export const call = callService;

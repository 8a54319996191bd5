import type { FastifyReply } from 'fastify';

/** One dependency's answer in a `/readyz` body: whether it answered, and why not. */
export interface ReadinessCheck {
  ok: boolean;
  error?: string;
}

/** The body every `/readyz` starts with; services add what else they report. */
export interface ReadinessBody<C> {
  status: 'ready' | 'not_ready';
  checks: C;
}

/** `/readyz` over the named checks: 200 `ready` when every one answered, else 503 `not_ready`; the body names each. */
export function readinessReply<C extends Record<string, ReadinessCheck>>(reply: FastifyReply, checks: C): ReadinessBody<C> {
  const ready = Object.values(checks).every((check) => check.ok);
  void reply.status(ready ? 200 : 503);
  return { status: ready ? 'ready' : 'not_ready', checks };
}

import type { IncomingMessage } from 'node:http';
import { createFloorVerifier, createMinimalReceiver, nowSeconds } from '@dcbkit-bench/shared';
import { SECRET } from './events.js';
import { readBody } from './read-body.js';

/** What a route answers (the shape of core's HttpAnswer, which the dcbkit route gets). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The very bytes and header dcbkit answers for an applied event. */
const RECEIVED: Answer = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ received: true, outcome: 'applied' }),
};
const DUPLICATE: Answer = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ received: true, outcome: 'duplicate' }),
};
const REFUSED: Answer = {
  status: 401,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ received: false, error: 'signature_mismatch' }),
};

/** The bare route: read the body, answer. The framework's own cost, and nothing else. */
export async function bareWork(req: IncomingMessage): Promise<Answer> {
  await readBody(req);
  return RECEIVED;
}

const floor = createFloorVerifier(SECRET);

/** The floor route: the bare route plus the least a correct receiver must do (see shared/floor.ts). */
export async function floorWork(req: IncomingMessage): Promise<Answer> {
  const rawBody = await readBody(req);
  const header = req.headers['service-signature'];
  try {
    floor(rawBody, typeof header === 'string' ? header : undefined, nowSeconds());
  } catch {
    return REFUSED;
  }
  return RECEIVED;
}

const minimal = createMinimalReceiver(SECRET);

/** The minimal receiver's route: the floor plus a Set of events seen and a Map store (see shared/minimal-receiver.ts). */
export async function minimalWork(req: IncomingMessage): Promise<Answer> {
  const rawBody = await readBody(req);
  const header = req.headers['service-signature'];
  try {
    return minimal(rawBody, typeof header === 'string' ? header : undefined, nowSeconds()) === 'applied'
      ? RECEIVED
      : DUPLICATE;
  } catch {
    return REFUSED;
  }
}

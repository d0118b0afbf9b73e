import { createHmac } from 'node:crypto';

/**
 * Signs a body the way the service does (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`),
 * from node:crypto alone: the benches' inputs must not depend on the code they measure.
 */
export function signBody(body: string | Buffer, secret: string, timestampSeconds: number): string {
  const t = String(timestampSeconds);
  const digest = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${digest}`;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

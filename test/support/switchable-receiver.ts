import type { DcbKit } from '@dcbkit/core';
import { listen, type RunningServer } from './listen.js';

/** A webhook receiver on the kit that can be taken down: it then answers 500, as one whose database is out would. */
export interface SwitchableReceiver extends RunningServer {
  up: boolean;
}

export async function switchableReceiver(kit: Pick<DcbKit, 'webhook'>): Promise<SwitchableReceiver> {
  const state = { up: true };
  const server = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!state.up) {
      res.writeHead(500).end('store unavailable');
      return;
    }
    const answer = await kit.webhook({ rawBody: Buffer.concat(chunks), headers: req.headers });
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  return Object.assign(state, server);
}

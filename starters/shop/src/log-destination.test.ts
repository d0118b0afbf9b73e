import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readableLog } from './log-destination.js';
import { createLogger } from './logger.js';

function readableLines(): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger('info', readableLog({ colorize: false, destination })) };
}

describe('the log in a terminal', () => {
  it('is one short line per request: method, path, status and time', () => {
    const { lines, logger } = readableLines();
    logger.info(
      { req: { id: 1, method: 'GET', url: '/account' }, res: { statusCode: 200 }, responseTime: 3 },
      'request completed',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/account 200 in 3 ms$/);
  });

  it('names the request of a failure and still prints the error under it', () => {
    const { lines, logger } = readableLines();
    logger.error({ err: new Error('boom'), req: { method: 'POST', url: '/checkout' } }, 'request failed');
    expect(lines[0]).toMatch(/ERROR: request failed: POST \/checkout$/);
    expect(lines.join('\n')).toContain('boom');
  });
});

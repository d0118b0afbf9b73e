import type { HttpAnswer } from '@dcbkit/core/web';
import type { Context } from 'koa';

export function writeAnswer(ctx: Context, answer: HttpAnswer): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  // Koa would turn a null body into 204; an empty string keeps the status (303, say).
  ctx.body = answer.body ?? '';
}

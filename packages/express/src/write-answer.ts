import type { HttpAnswer } from '@dcbkit/core/web';
import type { Response } from 'express';

export function writeAnswer(res: Response, answer: HttpAnswer): void {
  res.status(answer.status).set(answer.headers);
  if (answer.body === undefined) res.end();
  else res.send(answer.body);
}

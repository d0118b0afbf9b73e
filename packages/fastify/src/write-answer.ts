import type { HttpAnswer } from '@dcbkit/core/web';
import type { FastifyReply } from 'fastify';

/** Sends core's answer as it is; returns the reply, as Fastify asks of an async handler that answered. */
export function writeAnswer(reply: FastifyReply, answer: HttpAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers);
  return answer.body === undefined ? reply.send() : reply.send(answer.body);
}

import type { FastifyReply, FastifyRequest } from 'fastify';

/** A Fastify route handler of dcbkit's: it always answers, and resolves with the reply it sent. */
export type FastifyRouteHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

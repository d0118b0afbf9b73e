/**
 * The webhook's bytes a framework's body parser kept, as an adapter hands them to runNodeWebhook:
 * the request's `rawBody` (express.json's `verify`, fastify-raw-body), else a body the parser left
 * as bytes or text (express.raw, a buffer parser); undefined when it kept none.
 *
 * @example
 * runNodeWebhook(handler, { req, kept: keptBytesOf(req), mountingHint });
 */
export function keptBytesOf(request: { rawBody?: unknown; body?: unknown }): unknown {
  if (request.rawBody !== undefined) return request.rawBody;
  const { body } = request;
  return Buffer.isBuffer(body) || typeof body === 'string' ? body : undefined;
}

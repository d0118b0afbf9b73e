import type { HttpAnswer } from '../http/http-answer.js';

/** Core's framework-neutral answer as a fetch Response: the status, the headers and the body as they are. */
export function responseOf(answer: HttpAnswer): Response {
  return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
}

/**
 * `response` with `headers` added where it lacks them (Allow, Retry-After on a refusal the app
 * rendered): the app's own values win. A copy when one is needed, as a Response's headers may be
 * immutable (Response.redirect, a fetched response).
 */
export function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  const missing = Object.entries(headers).filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  const copy = new Response(response.body, response);
  for (const [name, value] of missing) copy.headers.set(name, value);
  return copy;
}

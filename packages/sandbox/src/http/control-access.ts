import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../shared/api-error.js';
import { errorReply } from './error-envelope.js';
import { type Reply, redirectReply } from './reply.js';

const COOKIE = 'sandbox_control';
const QUERY = 'control_token';

/**
 * Guards the control endpoints (`/sandbox/…`: the configured secrets, the PINs of the SMS inbox,
 * webhook redirection) with a token once the sandbox listens beyond this machine. A script sends
 * `Authorization: Bearer <token>`; a browser opens any control page once with
 * `?control_token=<token>`, which sets an HttpOnly cookie and reloads without it.
 * Undefined: nothing is guarded (loopback only; startSandbox refuses otherwise).
 */
export function controlAccess(token: string | undefined) {
  return (url: URL, headers: IncomingHttpHeaders): Reply | undefined => {
    if (token === undefined || !isControlPath(url.pathname)) return undefined;
    const given = url.searchParams.get(QUERY);
    if (given !== null && matches(given, token)) {
      url.searchParams.delete(QUERY);
      const reply = redirectReply(`${url.pathname}${url.search}`, 303);
      return {
        ...reply,
        headers: {
          ...reply.headers,
          'set-cookie': `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/sandbox`,
        },
      };
    }
    if (matches(bearerOf(headers) ?? cookieOf(headers) ?? '', token)) return undefined;
    return errorReply(
      new ApiError(
        'SBX-401',
        'The sandbox control endpoints need its control token (Authorization: Bearer <token>).',
      ),
    );
  };
}

// The checkout's own pages stay open: /sandbox/inbox, where a subscriber on a phone reads the PIN,
// is a control page and needs the token like the rest.
function isControlPath(path: string): boolean {
  return path === '/sandbox' || path.startsWith('/sandbox/');
}

function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  return value?.startsWith('Bearer ') ? value.slice('Bearer '.length) : undefined;
}

function cookieOf(headers: IncomingHttpHeaders): string | undefined {
  for (const part of (headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

function matches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

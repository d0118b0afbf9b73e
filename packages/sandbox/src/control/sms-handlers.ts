import { htmlReply } from '../checkout/layout.js';
import { successReply } from '../http/reply.js';
import type { RouteHandler, RouteRequest } from '../http/router.js';
import type { ControlDeps } from './control-deps.js';
import { inboxPage } from './control-pages.js';

/** GET /sandbox/sms[?msisdn=&paymentUid=]: the SMS the mock operator carried, newest first. */
export function listSms({ sms }: ControlDeps): RouteHandler {
  return (request) => successReply(200, sms.list(smsFilter(request)));
}

/** GET /sandbox/inbox[?msisdn=]: the same SMS as a page a subscriber reads the PIN from. */
export function showInbox({ sms }: ControlDeps): RouteHandler {
  return (request) =>
    htmlReply(
      200,
      inboxPage(sms.list(smsFilter(request)), request.url.searchParams.get('msisdn') ?? undefined),
    );
}

function smsFilter(request: RouteRequest): { msisdn?: string; paymentUid?: string } {
  // A "+" typed in a query string arrives as a space.
  const msisdn = request.url.searchParams
    .get('msisdn')
    ?.trim()
    .replace(/^(?=[0-9])/, '+');
  const paymentUid = request.url.searchParams.get('paymentUid');
  return { ...(msisdn ? { msisdn } : {}), ...(paymentUid ? { paymentUid } : {}) };
}

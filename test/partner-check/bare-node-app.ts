import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  availableUnits,
  createDcbKit,
  type DcbKit,
  type Entitlement,
  isDcbError,
  silentLogger,
  type WebhookEvent,
} from '@dcbkit/core';
import type { RouteResult } from '@dcbkit/core/node';
import { verifyWebhook } from '@dcbkit/core/webhooks';
import { offerDefinitionsOf, type Sandbox } from '@dcbkit/sandbox';

/**
 * A partner app on bare node:http, in a framework dcbkit has no adapter for: its own routing, its
 * own raw-body and form reading, its own checkout, return, gate and spend handlers over
 * `@dcbkit/core`'s kit. The partner check's proof of "any framework". With a flaw, it is the app a
 * partner writes by mistake:
 * - `reserialised-body`: the webhook verifies `JSON.stringify(JSON.parse(body))`, not the bytes received;
 * - `no-deduplication`: the webhook adds a unit on every payment.succeeded it is sent, with no ledger.
 */
export type AppFlaw = 'reserialised-body' | 'no-deduplication';

export interface BareNodeApp {
  url: string;
  kit: DcbKit;
  close(): Promise<void>;
}

/** The header this app reads as "signed in" (a real app reads its session). */
export const ACCOUNT_HEADER = 'x-account';

const BODY_LIMIT_BYTES = 64 * 1024;
const GATES: Readonly<Record<string, string>> = {
  '/premium': 'prod_premium',
  '/unlock': 'prod_full_unlock',
  '/day-pass': 'prod_day_pass',
};
const SPEND = /^\/account\/passes\/([A-Za-z0-9_-]+)\/use$/;

class BodyTooLarge extends Error {}

/** The request body as received, byte for byte: what the webhook signature covers. */
async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams((await readRawBody(req)).toString('utf8')));
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type }).end(body);
}

function writeResult(res: ServerResponse, result: RouteResult): void {
  if (result.type === 'redirect') res.writeHead(result.status, { location: result.location }).end();
  else send(res, result.status, JSON.stringify(result.view));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One more unit for any payment.succeeded, however often it comes: the flaw `no-deduplication`. */
function addUnitBlindly(
  event: WebhookEvent,
  key: { accountKey: string; productUid: string; offerUid: string },
) {
  return (current: Entitlement | undefined): Entitlement => ({
    ...key,
    type: 'CONSUMABLE',
    status: 'ACTIVE',
    subscriptionUid: null,
    subscriberUid: event.subscriberUid ?? null,
    currentPeriodEnd: null,
    trialEndsAt: null,
    cancelAt: null,
    graceEndsAt: null,
    unitsBought: (current?.unitsBought ?? 0) + 1,
    unitsUsed: current?.unitsUsed ?? 0,
    unitAccessSeconds: null,
    unitAccessEndsAt: null,
    lastEventName: event.event,
    lastEventAt: event.occurredAt,
  });
}

export async function startBareNodeApp(sandbox: Sandbox, flaw?: AppFlaw): Promise<BareNodeApp> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kit = createDcbKit({
    client: {
      environment: 'sandbox',
      baseUrl: sandbox.apiBaseUrl,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
    },
    webhookSecrets: sandbox.credentials.webhookSecret,
    offers: offerDefinitionsOf(sandbox.config),
    returnUrl: `${url}/return`,
    logger: silentLogger,
    now: () => sandbox.clock.now(),
  });

  async function webhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let rawBody = await readRawBody(req);
    if (flaw === 'reserialised-body') {
      rawBody = Buffer.from(JSON.stringify(JSON.parse(rawBody.toString('utf8'))));
    }
    if (flaw === 'no-deduplication') {
      const event = verifyWebhook({
        rawBody,
        signature: req.headers['service-signature'],
        secrets: sandbox.credentials.webhookSecret,
      });
      const offer = kit.offers.get(event.offerUid ?? '');
      const accountKey = event.metadata?.accountKey;
      if (
        event.event === 'payment.succeeded' &&
        offer?.type === 'CONSUMABLE' &&
        typeof accountKey === 'string'
      ) {
        const key = { accountKey, productUid: offer.productUid, offerUid: offer.offerUid };
        await kit.store.update(accountKey, offer.productUid, addUnitBlindly(event, key));
        send(res, 200, '{"received":true}');
        return;
      }
    }
    const answer = await kit.webhook({ rawBody, headers: req.headers });
    res.writeHead(answer.status, answer.headers).end(answer.body);
  }

  async function offersPage(res: ServerResponse, accountKey: string): Promise<void> {
    const forms = kit.offers.listed.map(
      (offer) => `<form method="post" action="/checkout">
  <input type="hidden" name="offerUid" value="${escapeHtml(offer.offerUid)}">
  <input type="hidden" name="token" value="${escapeHtml(kit.routes.formToken(accountKey))}">
  <button type="submit">${escapeHtml(offer.name)}</button>
</form>`,
    );
    send(res, 200, `<!doctype html><title>Offers</title>${forms.join('\n')}`, 'text/html');
  }

  async function accountPage(res: ServerResponse, accountKey: string): Promise<void> {
    const entitlements = await kit.store.listByAccount(accountKey);
    const forms = entitlements
      .filter((entitlement) => availableUnits(entitlement) > 0)
      .map(
        (
          entitlement,
        ) => `<form method="post" action="/account/passes/${escapeHtml(entitlement.productUid)}/use">
  <input type="hidden" name="token" value="${escapeHtml(kit.routes.formToken(accountKey))}">
  <button type="submit">Use one</button>
</form>`,
      );
    send(res, 200, `<!doctype html><title>Account</title>${forms.join('\n')}`, 'text/html');
  }

  /** The handler of a page or route for a signed-in account, or undefined when there is none. */
  function pageFor(req: IncomingMessage, pathname: string, searchParams: URLSearchParams) {
    const origin = {
      origin: req.headers.origin,
      secFetchSite: req.headers['sec-fetch-site'] as string | undefined,
      simpleBody: true,
    };
    const gated = GATES[pathname];
    const spend = SPEND.exec(pathname)?.[1];
    const key = `${req.method} ${spend === undefined ? pathname : '/account/passes/:productUid/use'}`;
    switch (key) {
      case 'GET /':
        return (accountKey: string, res: ServerResponse) => offersPage(res, accountKey);
      case 'GET /account':
        return (accountKey: string, res: ServerResponse) => accountPage(res, accountKey);
      case 'POST /checkout':
        return async (accountKey: string, res: ServerResponse) => {
          const fields = await readForm(req);
          writeResult(
            res,
            await kit.routes.checkout({ accountKey, fields, request: origin, method: 'POST' }),
          );
        };
      case 'GET /return':
        return async (accountKey: string, res: ServerResponse) => {
          const fields = Object.fromEntries(searchParams);
          writeResult(res, await kit.routes.returnPage({ accountKey, fields, method: 'GET' }));
        };
      case 'POST /account/passes/:productUid/use':
        return async (accountKey: string, res: ServerResponse) => {
          const fields = { ...(await readForm(req)), productUid: spend };
          writeResult(
            res,
            await kit.routes.spendUnit({ accountKey, fields, request: origin, method: 'POST' }),
          );
        };
    }
    if (req.method !== 'GET' || gated === undefined) return undefined;
    return async (accountKey: string, res: ServerResponse) => {
      const { allowed } = await kit.routes.checkAccess(accountKey, gated);
      if (allowed) send(res, 200, 'the content', 'text/plain');
      else send(res, 403, '{"error":"access_required"}');
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname, searchParams } = new URL(req.url ?? '/', url);
    if (req.method === 'POST' && pathname === '/webhooks/dcb') return webhook(req, res);
    const page = pageFor(req, pathname, searchParams);
    if (page === undefined) return send(res, 404, '{"error":"not_found"}');
    const accountKey = req.headers[ACCOUNT_HEADER];
    if (typeof accountKey !== 'string') return send(res, 401, '{"error":"unauthenticated"}');
    return page(accountKey, res);
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) return send(res, 413, '{"error":"body_too_large"}');
      if (isDcbError(error) && error.httpStatus !== undefined) {
        return send(res, error.httpStatus, JSON.stringify({ error: error.code }));
      }
      send(res, 500, JSON.stringify({ error: String(error) }));
    });
  });

  return {
    url,
    kit,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Every finding of `dcbkit doctor`, as data: a stable code (scripts read the --json report), a
// severity, and the fix in one paragraph naming what to change. docs/doctor.md has a section per
// code (test/doctor/doctor-docs.test.ts holds the two together).

/**
 * - `error`: deliveries of the service are lost, or forged ones get in.
 * - `warning`: deliveries pass today, with less margin than they should have.
 */
export type FindingSeverity = 'error' | 'warning';

interface FindingRow {
  readonly severity: FindingSeverity;
  readonly fix: string;
}

export const DOCTOR_FINDINGS = {
  dns_failed: {
    severity: 'error',
    fix: 'Check the host name of the webhook URL set for this environment in the partner console: a typo, a DNS record not created yet, or one that only resolves inside your network (a private zone, /etc/hosts). The service resolves it from the internet.',
  },
  connection_failed: {
    severity: 'error',
    fix: 'Make the app reachable on that host and port: listen on every interface (HOST=0.0.0.0 in the starters) behind the load balancer, open the firewall or security group to the internet, and put the public port in the URL, not the port the app listens on inside.',
  },
  tls_failed: {
    severity: 'error',
    fix: 'Serve a certificate valid for this host name from a public authority, with its intermediate certificates (a self-signed, expired or incomplete chain fails the service as it failed here). An https URL on a port that speaks plain http fails the same way: point the URL at the TLS listener.',
  },
  timed_out: {
    severity: 'error',
    fix: 'Make the route answer. A request that hangs is usually a handler that never ends the response, a body that is never read, or a proxy waiting on an upstream that is down. With dcbkit, mount createExpressWebhook(kit.webhook) or createKoaWebhook(kit.webhook) on this exact path; it answers within bodyTimeoutMs and timeoutMs (10 s each by default).',
  },
  wrong_secret: {
    severity: 'error',
    fix: "Set DCB_WEBHOOK_SECRET (or the secrets given to createWebhookHandler or verifyWebhook) to this environment's signing secret from the partner console: sandbox and production have their own. While rotating, give both, new first: DCB_WEBHOOK_SECRET=whsec_new,whsec_old. Check the secret given to the doctor too (--secret). If both are right, the receiver hashes other bytes than it received: see body_reserialised.",
  },
  signature_header_dropped: {
    severity: 'error',
    fix: "Something in front of the app removes the Service-Signature header: a proxy, an API gateway or a WAF that forwards a list of allowed headers. Let Service-Signature through unchanged at every hop, and read it in the app as req.headers['service-signature'].",
  },
  signature_refused: {
    severity: 'error',
    fix: "The receiver answers every signature problem alike, so the doctor cannot tell which one this is: a wrong secret (set DCB_WEBHOOK_SECRET to this environment's signing secret), a proxy dropping the Service-Signature header (let it through), or a body re-serialised before hashing (verify the raw bytes). The receiver's log says which; dcbkit answers each with its own code.",
  },
  body_reserialised: {
    severity: 'error',
    fix: "The receiver verifies JSON it re-serialised from a parsed body (JSON.stringify(req.body)) instead of the bytes it received; it passes compact JSON by luck. Verify the raw bytes: in Express, mount the webhook route before app.use(express.json()), or give it express.raw({ type: 'application/json' }), or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }); in Koa, use ctx.request.rawBody from @koa/bodyparser. createExpressWebhook and createKoaWebhook do this for you.",
  },
  raw_body_lost: {
    severity: 'error',
    fix: "A body parser read the body before dcbkit's webhook route and kept no bytes (dcbkit answers 500 body_not_raw). In Express, mount app.post('/webhooks/dcb', createExpressWebhook(kit.webhook)) before app.use(express.json()), or keep the bytes with express.json({ verify }); in Koa, mount createKoaWebhook(kit.webhook) before the body parser, or use @koa/bodyparser, which keeps ctx.request.rawBody.",
  },
  clock_skew: {
    severity: 'error',
    fix: "Synchronise the receiving server's clock (NTP: chrony or systemd-timesyncd; a container uses its host's clock). The spec refuses a timestamp more than 300 s from the receiver's now, so every delivery is refused while the clock is that far off. The doctor signs with this machine's clock: check it is synchronised too (timedatectl).",
  },
  clock_drift: {
    severity: 'warning',
    fix: "Synchronise the receiving server's clock (NTP: chrony or systemd-timesyncd). Deliveries still pass, but every second the clock is off is a second less of the spec's 300 s for a delivery delayed in transit, and past 300 s every delivery is refused. The doctor signs with this machine's clock: check it is synchronised too (timedatectl).",
  },
  narrow_tolerance: {
    severity: 'warning',
    fix: "The receiver accepts less than the spec's 300 s either side of its now, so a delivery delayed in transit is refused for its age. Use the spec's tolerance: leave toleranceSeconds unset in createWebhookHandler, createDcbKit and verifyWebhook (300 by default), or compare Math.abs(now - t) <= 300 in a hand-written check.",
  },
  valid_redirected: {
    severity: 'error',
    fix: 'Set the webhook URL in the partner console to the address that answers itself: https rather than http, the canonical host, with or without the trailing slash as the route expects. The service posts to the URL it is given; the spec does not say it follows a redirect.',
  },
  valid_not_found: {
    severity: 'error',
    fix: "Make the console's webhook URL and the route's path the same: the starters mount POST /webhooks/dcb (app.post('/webhooks/dcb', createExpressWebhook(kit.webhook))). A 405 means the path exists for another method: the service posts.",
  },
  valid_failed: {
    severity: 'error',
    fix: "Read the app's error log for this request: it fails on a valid delivery. The service retries a 5xx up to five times within 48 hours, then dead-letters the event. With dcbkit, processing_failed is the store, the ledger or a listener throwing, and processing_timeout a store or listener slower than timeoutMs.",
  },
  valid_refused: {
    severity: 'error',
    fix: 'Answer 2xx to every verified delivery, including an event name you do not handle (the service adds events): verify, then ignore it. dcbkit answers an unknown event 200 {"received":true,"outcome":"ignored"}. A 403 is often a WAF or bot rule in front of the app: let POST requests to this path through.',
  },
  duplicate_refused: {
    severity: 'error',
    fix: 'The service delivers at least once: answer a delivery you already processed with a 2xx, without doing it again (dcbkit answers 200 {"received":true,"outcome":"duplicate"}). Refusing it makes the service retry it, then dead-letter it.',
  },
  signature_not_verified: {
    severity: 'error',
    fix: "The receiver does not verify signatures: anyone can post an event and be granted access. Verify every delivery before acting on it: mount createExpressWebhook(kit.webhook) or createKoaWebhook(kit.webhook), or call verifyWebhook({ rawBody, signature: req.headers['service-signature'], secrets: process.env.DCB_WEBHOOK_SECRET.split(',') }) and answer 401 when it throws.",
  },
  stale_accepted: {
    severity: 'error',
    fix: "The receiver checks the signature but not its timestamp (or allows far more than the spec's 300 s), so a captured delivery can be replayed. Refuse a t more than 300 s from now: verifyWebhook does (toleranceSeconds, 300 by default); a hand-written check compares Math.abs(now - t) <= 300 after the signature.",
  },
  slow_answers: {
    severity: 'warning',
    fix: "Answer quickly and do slow work after: the service expects a quick 2xx and retries what it gives up waiting for. With dcbkit, the time goes to the store and your listeners (timeoutMs bounds them, 10 s by default, then 503): move slow work out of the listeners to a queue, and check the store's latency. Behind a proxy, check its own queueing.",
  },
  no_body_limit: {
    severity: 'warning',
    fix: "Limit the webhook route's body size: events are small JSON, and a route that reads any size lets anyone make the app hold memory. dcbkit refuses more than maxBodyBytes (1 MiB by default) with 413; express.raw({ type: 'application/json', limit: '1mb' }) or a proxy's client_max_body_size do it too.",
  },
  oversize_not_refused: {
    severity: 'warning',
    fix: "Refuse an oversize body with a 413 at once rather than leaving the request to hang: set a body limit in the app (maxBodyBytes, express.raw({ limit: '1mb' })) or in the proxy (client_max_body_size), and check it answers.",
  },
} as const satisfies Record<string, FindingRow>;

/** A finding's stable code: branch on it in scripts. */
export type FindingCode = keyof typeof DOCTOR_FINDINGS;

/** One problem found, with what was seen and what to change. */
export interface Finding {
  readonly code: FindingCode;
  readonly severity: FindingSeverity;
  /** What the probes showed, with the numbers: which probe, which answer, how far off. */
  readonly summary: string;
  /** What to change: the variable, the line, the setting. */
  readonly fix: string;
}

export function finding(code: FindingCode, summary: string): Finding {
  const { severity, fix } = DOCTOR_FINDINGS[code];
  return { code, severity, summary, fix };
}

/** Errors first, then warnings; within a severity, the table's order. */
export function byImportance(a: Finding, b: Finding): number {
  const codes = Object.keys(DOCTOR_FINDINGS);
  if (a.severity !== b.severity) return a.severity === 'error' ? -1 : 1;
  return codes.indexOf(a.code) - codes.indexOf(b.code);
}

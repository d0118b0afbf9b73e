import { randomBytes } from 'node:crypto';
import type { Reply } from '../http/reply.js';
import { html, rawHtml, type SafeHtml } from './html.js';
import { directionOf, type Locale } from './locale.js';

const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",sans-serif;background:#f3f4f6;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1rem}
.card+.card{margin-block-start:1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:.15rem .6rem;font-size:.8rem;margin-block-end:.75rem}
.operator{font-size:.85rem;color:#374151;border-inline-start:3px solid #2563eb;padding-inline-start:.5rem;margin-block:.5rem}
h1{font-size:1.3rem;margin:.25rem 0 1rem}
.offer{border-block-end:1px solid #e5e7eb;padding-block-end:.75rem;margin-block-end:1rem}
.offer strong{display:block;font-size:1.1rem}
.muted{color:#6b7280;font-size:.9rem}
label{display:block;font-weight:600;margin-block:.75rem .25rem}
input[type=tel],input[type=text]{width:100%;font-size:1.15rem;padding:.65rem;border:1px solid #9ca3af;border-radius:8px}
input[readonly]{background:#f3f4f6}
fieldset{border:1px solid #e5e7eb;border-radius:8px;margin-block:1rem;padding:.5rem .75rem}
fieldset label{display:inline-flex;gap:.4rem;font-weight:400;margin-inline-end:1rem}
button,.button{display:block;width:100%;text-align:center;font-size:1.05rem;padding:.8rem;margin-block-start:.75rem;border:0;border-radius:8px;background:#2563eb;color:#fff;text-decoration:none;cursor:pointer}
button.secondary,.button.secondary{background:#e5e7eb;color:#111827}
button.link{background:none;color:#2563eb;padding:.4rem;text-decoration:underline}
.error{background:#fee2e2;color:#991b1b;border-radius:8px;padding:.6rem .75rem}
.code{font-family:ui-monospace,monospace;font-size:1.2rem;letter-spacing:.1em}
form{margin:0}
iframe.checkout{display:block;width:100%;min-height:42rem;border:1px dashed #9ca3af;border-radius:12px;background:#fff}
bdi{unicode-bidi:isolate}
`;

export interface PageOptions {
  locale: Locale;
  title: string;
  body: SafeHtml;
  /** Where and after how long the page moves on by itself (no JavaScript needed). */
  refresh?: { seconds: number; url?: string };
  /** An inline script, allowed by the page's nonce. */
  script?: string;
}

export interface HtmlReplyOptions {
  locale?: Locale;
  /** Embedded checkouts render inside the partner's iframe; every other page refuses to be framed. */
  framable?: boolean;
  /** Origins a form submission may end up at after redirects (the return URL's). */
  formTargets?: string[];
  /** Lets the page hold same-origin iframes (the sandbox's embedded checkout demo). */
  framesSelf?: boolean;
}

/** A whole HTML page: right to left for Arabic, readable on a phone, its only script nonce-bound. */
export function renderPage(options: PageOptions, nonce: string): string {
  const refresh = options.refresh
    ? html`<meta http-equiv="refresh" content="${options.refresh.seconds}${options.refresh.url ? `;url=${options.refresh.url}` : ''}">`
    : '';
  const script = options.script ? html`<script nonce="${nonce}">${rawHtml(options.script)}</script>` : '';
  return html`<!doctype html>
<html lang="${options.locale}" dir="${directionOf(options.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
${refresh}
<title>${options.title}</title>
<style nonce="${nonce}">${rawHtml(STYLES)}</style>
</head>
<body><main>${options.body}</main>${script}</body>
</html>`.value;
}

/** Renders a page and wraps it with the headers every checkout page needs (CSP, framing, language). */
export function htmlReply(status: number, page: PageOptions, options: HtmlReplyOptions = {}): Reply {
  const nonce = randomBytes(16).toString('base64');
  const framable = options.framable ?? false;
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "base-uri 'none'",
    `form-action 'self'${(options.formTargets ?? []).map((origin) => ` ${origin}`).join('')}`,
    `frame-ancestors ${framable ? '*' : "'none'"}`,
    ...(options.framesSelf ? ["frame-src 'self'"] : []),
  ].join('; ');
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'content-language': page.locale,
    vary: 'Accept-Language',
  };
  if (!framable) headers['x-frame-options'] = 'DENY';
  return { status, headers, body: renderPage(page, nonce) };
}

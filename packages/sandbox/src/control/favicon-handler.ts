import type { RouteHandler } from '../http/router.js';

// A card with a phone-bill tick, drawn inline: no asset file to ship or to miss.
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="7" y="2" width="18" height="28" rx="4" fill="#2563eb"/><rect x="10" y="6" width="12" height="18" rx="1" fill="#fff"/><path d="M12.5 15.5l3 3 5-6" fill="none" stroke="#2563eb" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** GET /favicon.ico and /favicon.svg: browsers ask for an icon on every page; answer one, not a 404. */
export const serveFavicon: RouteHandler = () => ({
  status: 200,
  headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
  body: FAVICON_SVG,
});

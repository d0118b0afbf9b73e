import type { Context } from 'koa';

/**
 * Redirects with 303 See Other: after a form post the browser follows with a GET, so reloading
 * the next page posts nothing again. (Koa's ctx.redirect alone answers 302.)
 */
export function seeOther(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}

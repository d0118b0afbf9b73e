import { DcbError } from '@dcbkit/core';
import type { WebhookHandler } from '@dcbkit/core/web';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { createFastifyWebhook } from './create-fastify-webhook.js';

export interface FastifyDcbkitOptions {
  /** The kit's webhook handler (`kit.webhook`), mounted as POST `webhookPath`. */
  webhook?: WebhookHandler;
  /** Where the service delivers webhooks, below the plugin's `prefix`. Default `/webhooks/dcb`. */
  webhookPath?: string;
  /**
   * Mounts your billing routes (createFastifyRoutes' handlers) in the plugin's scope, where
   * dcbkit reads form and JSON bodies itself: no @fastify/formbody needed.
   */
  mount?: (scope: FastifyInstance) => void | Promise<void>;
}

const NAME = 'fastifyDcbkit';

const plugin: FastifyPluginAsync<FastifyDcbkitOptions> = async (scope, options) => {
  const { webhook, webhookPath = '/webhooks/dcb', mount } = checkedOptions(options);
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', leaveBodyUnread);
  if (webhook) scope.post(webhookPath, createFastifyWebhook(webhook));
  await mount?.(scope);
};

// fastify-plugin for its metadata (a clear error on another Fastify major, the plugin's name in
// errors), with `encapsulate: true`: the parsers must stay in this scope, not leak into the app's.
/**
 * dcbkit in its own encapsulated Fastify scope: there every content type parser is replaced by one
 * that leaves the body unread, so the webhook gets the exact bytes the service signed (parsing
 * and re-serialising would fail every signature) and core reads forms and JSON within its own
 * limits (413, 408). Your app's parsers everywhere else are untouched. Options it cannot use are
 * a DcbError `invalid_option`, which `app.ready()` rejects with.
 *
 * @example
 * await app.register(fastifyDcbkit, {
 *   webhook: kit.webhook,
 *   mount(billing) {
 *     billing.post('/billing/checkout', dcb.checkout());
 *     billing.get('/billing/return', dcb.returnPage());
 *   },
 * });
 */
export const fastifyDcbkit = fastifyPlugin(plugin, {
  fastify: '5.x',
  name: '@dcbkit/fastify',
  encapsulate: true,
});

/** A parser that reads nothing: `request.body` stays undefined and the stream is core's to read. */
function leaveBodyUnread(_request: FastifyRequest, _payload: unknown, done: (error: null) => void): void {
  done(null);
}

function checkedOptions(options: FastifyDcbkitOptions): FastifyDcbkitOptions {
  const { webhook, webhookPath, mount } = options;
  if (webhook !== undefined && typeof webhook !== 'function')
    throw optionError('webhook', 'must be the kit’s webhook handler (kit.webhook)');
  if (webhookPath !== undefined && (typeof webhookPath !== 'string' || !webhookPath.startsWith('/')))
    throw optionError('webhookPath', 'must be a path starting with /');
  if (mount !== undefined && typeof mount !== 'function')
    throw optionError('mount', 'must be a function that mounts your routes on the scope it gets');
  if (webhook === undefined && mount === undefined)
    throw optionError('webhook', 'or mount is needed: the plugin would mount nothing');
  return options;
}

function optionError(option: string, problem: string): DcbError {
  return new DcbError('invalid_option', `${NAME}: ${option} ${problem}`, { details: { option } });
}

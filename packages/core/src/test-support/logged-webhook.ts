import { memoryLedger } from '../ledger/memory-ledger.js';
import type { DcbLogger } from '../observability/logger.js';
import { memoryStore } from '../store/memory-store.js';
import {
  type CreateWebhookHandlerOptions,
  createWebhookHandler,
} from '../webhooks/create-webhook-handler.js';

/**
 * A webhook handler for `secret` on a memory store and ledger, with no offers, whose warnings and
 * errors are kept in `logs`: for an adapter's test that reads what the handler logged (empty
 * `logs` between tests with `logs.length = 0`).
 */
export function loggedWebhook(secret: string, options: Partial<CreateWebhookHandlerOptions> = {}) {
  const logs: string[] = [];
  const logger: DcbLogger = {
    warn: (_fields, message) => logs.push(message),
    error: (_fields, message) => logs.push(message),
  };
  const webhook = createWebhookHandler({
    secrets: secret,
    store: memoryStore(),
    ledger: memoryLedger(),
    offers: [],
    logger,
    ...options,
  });
  return { webhook, logs };
}

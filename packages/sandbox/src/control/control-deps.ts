import type { SandboxClock } from '../clock/clock.js';
import type { Catalog } from '../config/catalog.js';
import type { EnvironmentName } from '../config/environment-config.js';
import type { GoLiveReview } from '../go-live/go-live-review.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { PendingSecrets } from './pending-secrets.js';

/** What the control endpoints of one environment read and act on. */
export interface ControlDeps {
  environment: EnvironmentName;
  /** This environment's origin: the dashboard's checkouts return to it. */
  apiBaseUrl: string;
  catalog: Catalog;
  review: GoLiveReview;
  /** Production secrets issued from the dashboard, waiting for its one view of them. */
  pendingSecrets: PendingSecrets;
  payments: PaymentService;
  subscriptions: SubscriptionEngine;
  outbox: WebhookOutbox;
  sms: SmsInbox;
  clock: SandboxClock;
}

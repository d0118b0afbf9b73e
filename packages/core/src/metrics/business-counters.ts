import { type Counter, createNoopMeter, metrics } from '@opentelemetry/api';
import { CHECKOUT_KINDS, type MetricEntry, type MetricKind } from './metric-entry.js';
import { METRICS_MEASURES, type MeasureCounter } from './metrics-measures.js';

const METER_NAME = '@dcbkit/core';

type CounterName = MeasureCounter['counter'] | 'dcbkit.checkouts';

/** A checkout's start and each of its endings, on the funnel's counter. */
const CHECKOUT_COUNTED = Object.fromEntries(
  CHECKOUT_KINDS.map((kind) => [
    kind,
    { counter: 'dcbkit.checkouts', attributes: { 'dcbkit.outcome': kind.slice('checkout_'.length) } },
  ]),
);

/** The counter and attributes each kind of fact adds to (METRICS_MEASURES', the funnel's); kinds the counters do not show are absent. */
const COUNTED: Partial<
  Record<MetricKind, { counter: CounterName; attributes: Readonly<Record<string, string>> }>
> = {
  ...Object.fromEntries(
    METRICS_MEASURES.flatMap(({ counts, counter }) => (counter === undefined ? [] : [[counts, counter]])),
  ),
  ...CHECKOUT_COUNTED,
};

/**
 * The business as OpenTelemetry counters, through `@opentelemetry/api` (a no-op until the app
 * registers a MeterProvider): facts as the store counted them, so each counts once across
 * redeliveries and reads (the checkout funnel's among them); payments by status; access granted and revoked; reconciliation repairs.
 */
export interface BusinessCounters {
  /** False until the app registers an SDK: callers skip what they would compute only for a counter. */
  readonly enabled: boolean;
  /** Facts the store counted (what `recordMetrics` resolved to). */
  facts(entries: readonly MetricEntry[]): void;
  /** A payment event processed for the first time. */
  payment(status: 'succeeded' | 'failed', offerUid: string | undefined): void;
  /** Access began or ended for an account and product. */
  access(change: 'granted' | 'revoked', productUid: string): void;
  /** Entitlements a reconciliation run changed. */
  repairs(count: number): void;
}

/** Creates the counters on the global meter provider as it is now (the app registers its SDK first). */
export function createBusinessCounters(): BusinessCounters {
  const meter = metrics.getMeter(METER_NAME);
  // The API's no-op meter when no SDK is registered: nothing to count, nothing to build per event.
  if (meter === createNoopMeter()) return NO_COUNTERS;
  const counters: Record<CounterName, Counter> = {
    'dcbkit.renewals': meter.createCounter('dcbkit.renewals', {
      description:
        'Subscription charges the operator collected or failed, trial conversions and recoveries from grace',
    }),
    'dcbkit.units': meter.createCounter('dcbkit.units', { description: 'CONSUMABLE units sold and spent' }),
    'dcbkit.subscriptions.ended': meter.createCounter('dcbkit.subscriptions.ended', {
      description: 'Subscriptions that ended, by cause',
    }),
    'dcbkit.checkouts': meter.createCounter('dcbkit.checkouts', {
      description:
        'Checkouts the partner routes started, and how each ended (the checkout funnel), with the service code of a refusal or failure',
    }),
  };
  const payments = meter.createCounter('dcbkit.payments', {
    description: 'Payments that succeeded or failed',
  });
  const access = meter.createCounter('dcbkit.access', { description: 'Access granted and revoked' });
  const repairs = meter.createCounter('dcbkit.reconcile.repairs', {
    description: 'Entitlements reconciliation changed to match the service',
  });
  return {
    enabled: true,
    facts(entries) {
      for (const entry of entries) {
        const counted = COUNTED[entry.kind];
        if (counted)
          counters[counted.counter].add(entry.count, {
            ...counted.attributes,
            // A checkout's refusal or failure code (PAY-101, RSK-101…; `none` when the service gave none).
            ...(entry.detail !== undefined ? { 'dcbkit.code': entry.detail } : {}),
            'dcbkit.offer': entry.offerUid,
          });
      }
    },
    payment(status, offerUid) {
      payments.add(
        1,
        offerUid === undefined
          ? { 'dcbkit.status': status }
          : { 'dcbkit.status': status, 'dcbkit.offer': offerUid },
      );
    },
    access(change, productUid) {
      access.add(1, { 'dcbkit.change': change, 'dcbkit.product': productUid });
    },
    repairs(count) {
      if (count > 0) repairs.add(count);
    },
  };
}

const NO_COUNTERS: BusinessCounters = Object.freeze({
  enabled: false,
  facts() {},
  payment() {},
  access() {},
  repairs() {},
});

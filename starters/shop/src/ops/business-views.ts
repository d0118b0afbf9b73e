import { checkoutFunnelView } from './business-checkout-funnel-view.js';
import { cohortsView } from './business-cohorts-view.js';
import { metricsView } from './business-metrics-view.js';
import { revenueMovementsView } from './business-revenue-view.js';
import { trialFunnelView } from './business-trial-funnel-view.js';
import type { BusinessView } from './business-view.js';

/** The Business page's views, in the order the page shows them (business-view.ts says how to add one). */
export const BUSINESS_VIEWS: readonly BusinessView[] = [
  metricsView,
  checkoutFunnelView,
  trialFunnelView,
  revenueMovementsView,
  cohortsView,
];

/** A view by its id, for its CSV route. */
export function businessViewById(id: string): BusinessView | undefined {
  return BUSINESS_VIEWS.find((view) => view.id === id);
}

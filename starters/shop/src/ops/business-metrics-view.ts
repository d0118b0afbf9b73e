import { businessCharts } from './business-charts.js';
import { businessCsv } from './business-csv.js';
import type { BusinessView } from './business-view.js';

/**
 * `kit.metrics` as a view: active subscribers, growth, renewals, churn by cause and money
 * collected, each a chart with its table; the CSV one line per bucket and offer.
 */
export const metricsView: BusinessView = {
  id: 'metrics',
  titleKey: 'ops.business.view.metrics',
  async charts(kit, { from, to, interval, offer }, words) {
    return businessCharts(await kit.metrics({ from, to, interval }), offer, words);
  },
  async csv(kit, { from, to, interval, offer }) {
    return businessCsv((await kit.metrics({ from, to, interval })).rows, offer);
  },
};

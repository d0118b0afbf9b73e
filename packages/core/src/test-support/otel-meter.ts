import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll } from 'vitest';

/**
 * The app's setup, as docs/operations.md shows it: an SDK registered before the kit is made, for
 * the test file that calls this. Returns every data point exported so far, as `name{attributes} value`.
 */
export function useTestMeter(): () => Promise<string[]> {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  beforeAll(() => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  });
  afterAll(() => metrics.disable());
  return async () => {
    await reader.forceFlush();
    const last = exporter.getMetrics().at(-1);
    return (last?.scopeMetrics ?? []).flatMap((scope) =>
      scope.metrics.flatMap((metric) =>
        metric.dataPoints.map((point) => {
          const attributes = Object.entries(point.attributes)
            .map(([key, value]) => `${key}=${String(value)}`)
            .sort()
            .join(',');
          return `${metric.descriptor.name}{${attributes}} ${String(point.value)}`;
        }),
      ),
    );
  };
}

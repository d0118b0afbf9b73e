import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { FaultWindow } from './explain.js';
import type { Sample } from './sampler.js';

interface Point {
  minute: number;
  panel: string;
  series: string;
  value: number;
}

const PANELS = [
  'RSS (MB)',
  'event-loop delay p99 (ms)',
  'checkout and webhook latency (ms)',
  'requests/s and PostgreSQL connections',
] as const;

/** The samples in long form, one row per figure: what vega-lite draws. */
function pointsOf(samples: readonly Sample[]): Point[] {
  const points: Point[] = [];
  const add = (sample: Sample, panel: string, series: string, value: number | null | undefined) => {
    if (value !== null && value !== undefined) points.push({ minute: sample.t / 60, panel, series, value });
  };
  for (const sample of samples) {
    sample.instances.forEach((instance, index) => {
      add(
        sample,
        PANELS[0],
        `shop ${index}`,
        instance.rssBytes === null ? null : instance.rssBytes / 1_048_576,
      );
      add(sample, PANELS[1], `shop ${index}`, instance.loopDelayP99Ms);
    });
    add(sample, PANELS[2], 'checkout p50', sample.checkoutP50Ms);
    add(sample, PANELS[2], 'checkout p99', sample.checkoutP99Ms);
    add(sample, PANELS[2], 'webhook p50', sample.webhookP50Ms);
    add(sample, PANELS[2], 'webhook p99', sample.webhookP99Ms);
    add(sample, PANELS[3], 'requests/s', sample.rps);
    add(sample, PANELS[3], 'PostgreSQL connections', sample.pgConnections);
  }
  return points;
}

/**
 * The run's figures over time, four panels sharing the time axis, with the faults as vertical
 * marks (red: shop 0 killed, blue: a PostgreSQL backend terminated, grey band: the webhook
 * outage). vega-lite compiles the spec, vega renders SVG without a browser, resvg makes a PNG of it.
 */
export async function writePlot(
  samples: readonly Sample[],
  faults: readonly FaultWindow[],
  svgPath: string,
): Promise<string> {
  const points = pointsOf(samples);
  const marks = faults.map((fault) => ({
    kind: fault.kind,
    from: fault.from / 60_000,
    to: Math.max(fault.to, fault.from + 1_000) / 60_000,
  }));
  const panel = (title: string) => ({
    width: 900,
    height: 160,
    title,
    layer: [
      {
        data: { values: marks.filter((m) => m.kind === 'outage') },
        mark: { type: 'rect', opacity: 0.15, color: 'grey' },
        encoding: { x: { field: 'from', type: 'quantitative' }, x2: { field: 'to' } },
      },
      {
        data: { values: marks.filter((m) => m.kind !== 'outage') },
        mark: { type: 'rule', opacity: 0.35 },
        encoding: {
          x: { field: 'from', type: 'quantitative' },
          color: {
            field: 'kind',
            type: 'nominal',
            scale: { domain: ['kill', 'pg-terminate'], range: ['#d62728', '#1f77b4'] },
            legend: null,
          },
        },
      },
      {
        data: { values: points.filter((p) => p.panel === title) },
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: {
          x: { field: 'minute', type: 'quantitative', title: 'minutes' },
          y: { field: 'value', type: 'quantitative', title: null },
          color: { field: 'series', type: 'nominal', title: null, scale: { scheme: 'dark2' } },
        },
      },
    ],
    resolve: { scale: { color: 'independent' } },
  });
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    background: 'white',
    vconcat: PANELS.map(panel),
    resolve: { scale: { color: 'independent' } },
  } as unknown as TopLevelSpec;
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  writeFileSync(svgPath, svg);
  const pngPath = svgPath.replace(/\.svg$/, '.png');
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: 1200 }, font: { loadSystemFonts: true } })
    .render()
    .asPng();
  writeFileSync(pngPath, png);
  return pngPath;
}

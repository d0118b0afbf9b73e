import { monitorEventLoopDelay } from 'node:perf_hooks';

// Loaded into each shop instance with `--import` (after tsx): every 10 s it sends its event-loop
// delay over the IPC channel the soak opened, then starts a fresh histogram. A preload keeps the
// shop's own code as a partner deploys it; RSS is read by the soak from /proc instead.
const SAMPLE_MS = 10_000;

if (process.send !== undefined) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    process.send?.({
      type: 'loop-delay',
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
    });
    histogram.reset();
  }, SAMPLE_MS);
  timer.unref();
  // The channel must not keep the shop alive once it is asked to stop.
  process.channel?.unref();
}

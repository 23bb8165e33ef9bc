/**
 * Loaded into a gateway with `--require` by catalogue-reload.js. A timer fires every millisecond on
 * the thread serving requests; every 50 ms the probe prints the longest interval between two
 * firings since its last line, less that millisecond: how long the event loop was held up, to
 * within a millisecond. (The gateway's own `nodejs_eventloop_lag_max_seconds` samples every 10 ms
 * and reports the whole interval, so it reads up to 10 ms above the stall, and never below 10 ms.)
 * Threads the gateway starts load this too, and are left alone.
 */
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { isMainThread } = require('node:worker_threads');

const RESOLUTION_MS = 1;
const REPORT_MS = 50;
if (isMainThread) measure();

function measure() {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  setInterval(() => {
    const stallMs = Math.max(0, histogram.max / 1e6 - RESOLUTION_MS);
    histogram.reset();
    process.stdout.write(`event-loop stall ${stallMs.toFixed(2)}\n`);
  }, REPORT_MS).unref();
}

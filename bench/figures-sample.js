/**
 * `node bench/figures-sample.js`: the CPU one request spends recording its sample for the measured
 * figures, on the hot path. Each round records, through the pipeline's own function, the sample of
 * a complete streamed answer (time to first token, whole time, throughput, runaway verdict, a tool
 * call) for one of BENCH_FIGURES_ENDPOINTS endpoints (default 30), on the real clock, into the
 * per-minute buckets; a few failed attempts are mixed in. Reported: CPU microseconds per recorded
 * sample (user + system of this process, over BENCH_FIGURES_SAMPLES samples, default 2,000,000),
 * and, apart, what a sync and the first read of one endpoint's figures after it cost.
 * Target (issue 12): under 2 µs per request. Needs `npm run build` first.
 */
import { recordAnswer, recordFailedAttempts } from '../dist/inference/endpoint-samples.js';
import { MeasuredEndpointFigures } from '../dist/stats/measured-figures.js';

const ENDPOINTS = Number(process.env.BENCH_FIGURES_ENDPOINTS ?? 30);
const SAMPLES = Number(process.env.BENCH_FIGURES_SAMPLES ?? 2_000_000);
const WARM_UP = 200_000;

const figures = new MeasuredEndpointFigures();
const endpointIds = Array.from({ length: ENDPOINTS }, (_, index) => `provider-${index}/acme/model-${index}`);
const call = { signal: new AbortController().signal, restart: new AbortController().signal };
const failure = (endpointId) => [{ attempt: { endpoint: { id: endpointId } }, failure: { kind: 'http', status: 503, retryable: true } }];

function recordOne(index) {
  const endpointId = endpointIds[index % ENDPOINTS];
  if (index % 50 === 0) {
    recordFailedAttempts(figures, failure(endpointId), call);
    return;
  }
  const startedAt = Date.now() - 900 - (index % 300);
  recordAnswer(figures, {
    endpointId,
    startedAt,
    endedAt: startedAt + 900 + (index % 300),
    firstContentAt: startedAt + 120 + (index % 97),
    tokenStream: true,
    completionTokens: 64 + (index % 200),
    finish: index % 40 === 0 ? 'length' : 'stop',
    end: 'complete',
    toolCall: index % 10 === 0 ? true : undefined,
  });
}

function cpuMicros() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

for (let index = 0; index < WARM_UP; index += 1) recordOne(index);
const before = cpuMicros();
for (let index = 0; index < SAMPLES; index += 1) recordOne(index);
const perSample = (cpuMicros() - before) / SAMPLES;

const syncStart = cpuMicros();
await figures.sync({ final: true });
const syncMicros = cpuMicros() - syncStart;
const readStart = cpuMicros();
figures.figuresOf(endpointIds[0]);
const firstRead = cpuMicros() - readStart;
const cachedStart = cpuMicros();
for (let index = 0; index < 100_000; index += 1) figures.figuresOf(endpointIds[index % ENDPOINTS]);
const cachedRead = (cpuMicros() - cachedStart) / 100_000;

console.log('| measure | value |');
console.log('|---|---|');
console.log(`| CPU per recorded sample (${SAMPLES.toLocaleString('en')} samples, ${ENDPOINTS} endpoints) | ${perSample.toFixed(3)} µs |`);
console.log(`| one sync closing every open minute (no database) | ${(syncMicros / 1000).toFixed(2)} ms |`);
console.log(`| first read of one endpoint's figures after a sync | ${firstRead} µs |`);
console.log(`| a read of cached figures | ${cachedRead.toFixed(3)} µs |`);
console.log(`target: under 2 µs per request — ${perSample < 2 ? 'met' : 'NOT met'}`);

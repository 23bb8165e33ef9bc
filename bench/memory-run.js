/**
 * The memory run: sustained mixed load on the gateway (each client alternates a non-streamed and
 * a streamed request) while its process is sampled. Checkpoints at the start, middle and end of the
 * load and once idle afterwards are taken after a full collection, so they show retained memory
 * rather than garbage; an uncollected RSS sample every second gives the peak.
 */
import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { replyBody, streamBody } from './chat-bodies.js';

const SAMPLE_EVERY_MS = 1000;

async function checkpoint(service, label, startedAt) {
  const usage = await service.memory(true);
  return { label, seconds: (performance.now() - startedAt) / 1000, usage };
}

function startLoad(target, options) {
  const headers = { ...target.headers, 'content-type': 'application/json' };
  return autocannon({
    url: target.url,
    method: 'POST',
    connections: options.connections,
    duration: options.seconds,
    requests: [
      { method: 'POST', headers, body: replyBody(target.model) },
      { method: 'POST', headers, body: streamBody(target.model) },
    ],
  });
}

async function samplePeak(service, until) {
  let peakRss = 0;
  while (performance.now() < until) {
    peakRss = Math.max(peakRss, (await service.memory(false)).rss);
    await sleep(SAMPLE_EVERY_MS);
  }
  return peakRss;
}

/**
 * @param {{ memory(gc?: boolean): Promise<NodeJS.MemoryUsage> }} service the gateway process
 * @param {{ url: string, headers: Record<string, string>, model: string }} target
 * @param {{ seconds: number, connections: number }} options
 */
export async function runMemory(service, target, options) {
  const startedAt = performance.now();
  const endAt = startedAt + options.seconds * 1000;
  const load = startLoad(target, options);
  const peak = samplePeak(service, endAt - 500);
  const points = [await checkpoint(service, 'start', startedAt)];
  await sleep(Math.max(0, startedAt + (options.seconds * 1000) / 2 - performance.now()));
  points.push(await checkpoint(service, 'middle', startedAt));
  await sleep(Math.max(0, endAt - 500 - performance.now()));
  points.push(await checkpoint(service, 'end', startedAt));
  const result = await load;
  points.push(await checkpoint(service, 'after load (idle)', startedAt));
  return {
    seconds: options.seconds,
    points,
    peakRss: await peak,
    requests: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StreamScript } from './stream-script.js';

export interface Pacing {
  ttftMs: number | undefined;
  tps: number | undefined;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } as const;

function finish(res: ServerResponse, text: string, ending: StreamScript['ending']): void {
  if (ending === 'end') {
    res.end(text);
    return;
  }
  // Let the bytes reach the socket, then drop it: no finish_reason, usage or [DONE].
  res.write(text, () => res.destroy());
}

async function waitUntil(at: number): Promise<void> {
  const wait = at - performance.now();
  if (wait > 0) await sleep(wait);
}

/**
 * Writes a scripted stream. Unpaced streams go out in one write with no timers at all;
 * paced ones send headers at once, wait the time to first token, then one batch per tick.
 */
export async function writeStream(res: ServerResponse, script: StreamScript, pacing: Pacing): Promise<void> {
  const { batches, ending } = script;
  if (!pacing.ttftMs && !pacing.tps) {
    const text = batches.join('');
    const headers = ending === 'end' ? { ...SSE_HEADERS, 'content-length': Buffer.byteLength(text) } : SSE_HEADERS;
    res.writeHead(200, headers);
    finish(res, text, ending);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  res.flushHeaders();
  if (pacing.ttftMs) await sleep(pacing.ttftMs);
  const start = performance.now();
  const interval = pacing.tps ? 1000 / pacing.tps : 0;
  for (let i = 0; i < batches.length; i += 1) {
    if (i > 0 && interval > 0) await waitUntil(start + i * interval);
    if (res.destroyed) return;
    const batch = batches[i] ?? '';
    if (i === batches.length - 1) finish(res, batch, ending);
    else res.write(batch);
  }
}

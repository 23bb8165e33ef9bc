/**
 * Worker thread of `estimate-stall.js`: sends `GET /api/v1/key` back to back on one keep-alive
 * connection, in its own event loop so that building and sending the big bodies never delays it,
 * and records each probe as [start, duration, ok] (milliseconds, start on the shared clock:
 * `performance.timeOrigin + performance.now()`; ok false for a failed exchange, such as a connection
 * the gateway dropped). Posts every record when told to stop.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const pool = new Pool(workerData.url, { connections: 1 });
const records = [];
let running = true;
parentPort.on('message', (message) => {
  if (message === 'stop') running = false;
});
parentPort.postMessage('started');
while (running) {
  const startedAt = performance.now();
  const ok = await pool
    .request({ path: '/api/v1/key', method: 'GET', headers: { authorization: `Bearer ${workerData.key}` } })
    .then(async (response) => {
      await response.body.dump();
      return response.statusCode === 200;
    })
    .catch(() => false);
  records.push([performance.timeOrigin + startedAt, performance.now() - startedAt, ok]);
  await new Promise((resolve) => setImmediate(resolve));
}
await pool.close();
parentPort.postMessage(records);

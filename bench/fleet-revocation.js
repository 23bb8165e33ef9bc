/**
 * `node bench/fleet-revocation.js` (after `npm run build`): how long a key revoked through one
 * instance's API stays usable on the others. Three instances (processes of their own) on one
 * PostgreSQL database and one Redis; each round creates a key, has instances B and C authenticate
 * it (so it is in their caches), revokes it with `DELETE /api/v1/keys/:hash` on instance A, and
 * asks B and C back to back until each answers 401. Prints the delay from the DELETE's answer to
 * each 401: p50, p99, max (target: p99 under 100 ms).
 *
 * BENCH_DATABASE_URL, BENCH_REDIS_URL and BENCH_KEY_STORE_URL as for fleet-throughput.js;
 * BENCH_ROUNDS (default 200).
 */
import { createAccount, createKey } from '../dist/accounts/accounts.js';
import { openStore } from '../dist/store/store.js';
import { startService } from './service-process.js';

for (const name of ['BENCH_DATABASE_URL', 'BENCH_REDIS_URL', 'BENCH_KEY_STORE_URL']) {
  if (!process.env[name]) throw new Error(`${name} is required (see the comment at the top of this file)`);
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 200);

async function status(url, key) {
  const response = await fetch(`${url}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response.status;
}

/** Milliseconds from `since` until `url` refuses `key`. */
async function refusedAfter(url, key, since) {
  for (;;) {
    const answered = await status(url, key);
    if (answered === 401) return performance.now() - since;
    if (answered !== 200) throw new Error(`unexpected ${answered}`);
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

const sim = await startService('serve-simulator.js');
const gateways = [];
const store = await openStore(process.env.BENCH_DATABASE_URL);
try {
  for (let index = 0; index < 3; index += 1) {
    const key = gateways[0]?.info.key;
    gateways.push(await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url, ...(key && { BENCH_KEY: key }) } }));
  }
  const [a, b, c] = gateways.map((gateway) => gateway.info.url);
  const account = await createAccount(store, { name: 'revocation bench', creditsUsd: '1' });
  const manager = await createKey(store, { accountId: account.accountId, name: 'manager', management: true });
  const delays = [];
  for (let round = 0; round < rounds; round += 1) {
    const doomed = await createKey(store, { accountId: account.accountId, name: `doomed ${round}` });
    if ((await status(b, doomed.key)) !== 200 || (await status(c, doomed.key)) !== 200) throw new Error('a fresh key was refused');
    const deleted = await fetch(`${a}/api/v1/keys/${doomed.hash}`, { method: 'DELETE', headers: { authorization: `Bearer ${manager.key}` } });
    if (deleted.status !== 200) throw new Error(`DELETE answered ${deleted.status}`);
    const since = performance.now();
    delays.push(...(await Promise.all([refusedAfter(b, doomed.key, since), refusedAfter(c, doomed.key, since)])));
  }
  delays.sort((x, y) => x - y);
  console.log(`${rounds} revocations, ${delays.length} instance readings: p50 ${percentile(delays, 0.5).toFixed(2)} ms, p99 ${percentile(delays, 0.99).toFixed(2)} ms, max ${delays.at(-1).toFixed(2)} ms`);
} finally {
  for (const gateway of gateways) await gateway.stop();
  await sim.stop();
  await store.close();
}

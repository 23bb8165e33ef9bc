/**
 * `node bench/file-memory.js` (after `npm run build`): what storing and reading back a large file
 * costs the gateway's memory. The gateway runs in its own process (as `serve-gateway.js` runs it:
 * a SQLite file, the default key store beside it); this process uploads a file of `BENCH_FILE_MIB`
 * MiB (default 100) to `POST /files` as a multipart form generated on the fly, reads it back from
 * `GET /files/{id}/content` and checks its SHA-256, while the gateway's RSS is sampled every 50 ms.
 *
 * It does so twice and prints, each time, the peak RSS over the idle RSS measured just before
 * (after a full collection): the first file meets a gateway that has stored nothing yet, whose
 * SQLite page cache (16 MB at most) fills as the chunks pass through it; the second meets one in
 * its running state. Target: at most 32 MiB of growth. Not asserted in tests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService } from './service-process.js';

const MiB = 1024 * 1024;
const FILE_MIB = Number(process.env.BENCH_FILE_MIB ?? 100);
const PIECE = 64 * 1024;
const SAMPLE_EVERY_MS = 50;
const TARGET_MIB = 32;

/** Uploads `size` bytes drawn from `pattern` as a multipart form, writing as the socket drains; resolves with the reply. */
function upload(gateway, size, pattern) {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.info.url}/api/v1/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.info.key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    }, (res) => {
      const parts = [];
      res.on('data', (part) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(parts).toString()), sha256: hash.digest('hex') }));
    });
    req.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const piece = pattern.subarray(0, Math.min(PIECE, size - sent));
        hash.update(piece);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end(tail);
    };
    req.write(head);
    write();
  });
}

/** Reads the file back whole, hashing it as it arrives; resolves with its size and SHA-256. */
function download(gateway, id) {
  return new Promise((resolve, reject) => {
    request(`${gateway.info.url}/api/v1/files/${id}/content`, { headers: { authorization: `Bearer ${gateway.info.key}` } }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (part) => {
        bytes += part.length;
        hash.update(part);
      });
      res.on('end', () => resolve({ status: res.statusCode, bytes, sha256: hash.digest('hex') }));
    }).on('error', reject).end();
  });
}

/** Runs `work` while sampling the gateway's RSS; resolves with its result, the peak RSS seen and the seconds it took. */
async function sampled(gateway, work) {
  const startedAt = performance.now();
  let done = false;
  let peak = 0;
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, (await gateway.memory(false)).rss);
      await sleep(SAMPLE_EVERY_MS);
    }
  })();
  try {
    const result = await work();
    return { result, peak, seconds: (performance.now() - startedAt) / 1000 };
  } finally {
    done = true;
    await sampling;
  }
}

const mib = (bytes) => (bytes / MiB).toFixed(1);

/** One file up and back, measured against the idle RSS just before; resolves with the peak growth. */
async function roundTrip(gateway, label, pattern) {
  const idle = (await gateway.memory(true)).rss;
  const size = FILE_MIB * MiB;
  const up = await sampled(gateway, () => upload(gateway, size, pattern));
  if (up.result.status !== 200) throw new Error(`upload answered ${up.result.status}: ${JSON.stringify(up.result.json)}`);
  const down = await sampled(gateway, () => download(gateway, up.result.json.id));
  if (down.result.bytes !== size || down.result.sha256 !== up.result.sha256) throw new Error('the file read back differs from the one stored');
  const growth = Math.max(up.peak, down.peak) - idle;
  console.log(`${label}: idle RSS ${mib(idle)} MiB; stored in ${up.seconds.toFixed(2)} s (peak +${mib(up.peak - idle)} MiB), `
    + `read back intact in ${down.seconds.toFixed(2)} s (peak +${mib(down.peak - idle)} MiB)`);
  return growth;
}

const sim = await startService('serve-simulator.js');
const gateway = await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url }, execArgv: ['--expose-gc'] });
try {
  const pattern = randomBytes(PIECE);
  // a small file both ways first, so the routes' code is loaded before anything is measured
  const warm = await upload(gateway, MiB, pattern);
  await download(gateway, warm.json.id);
  const first = await roundTrip(gateway, `first ${FILE_MIB} MiB file`, pattern);
  const second = await roundTrip(gateway, `second ${FILE_MIB} MiB file`, pattern);
  for (const [label, growth] of [['first file', first], ['second file', second]]) {
    console.log(`${label}: peak growth over idle ${mib(growth)} MiB (target at most ${TARGET_MIB} MiB: ${growth <= TARGET_MIB * MiB ? 'met' : 'missed'})`);
  }
} finally {
  await gateway.stop();
  await sim.stop();
}

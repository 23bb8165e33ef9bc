/**
 * `node bench/transcription-memory.js` (after `npm run build`): what transcribing the largest
 * recording costs the gateway's memory. The gateway runs in its own process (as `serve-gateway.js`
 * runs it); this process uploads a WAV of 25 MiB exactly (the route's limit) to
 * `POST /audio/transcriptions` as a multipart form written as the socket drains, while the
 * gateway's RSS is sampled every 25 ms. The gateway holds the recording once, reads its seconds,
 * and sends it on to the simulator (another process) around the held bytes.
 *
 * It does so three times and prints each peak RSS over the idle RSS measured just before (after a
 * full collection), and the most bytes held in buffers meanwhile (one recording held once is 25
 * MiB). Target: at most 64 MiB of RSS growth. Not asserted in tests.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildWav } from '../dist/sim/wav-audio.js';
import { startService } from './service-process.js';

const MiB = 1024 * 1024;
const LIMIT = 25 * MiB;
const PIECE = 64 * 1024;
const SAMPLE_EVERY_MS = 25;
const TARGET_MIB = 64;
const ROUNDS = 3;

/** Uploads `wav` as the form's file beside `model`, writing as the socket drains; resolves with the reply. */
function transcribe(gateway, wav, model) {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.info.url}/api/v1/audio/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.info.key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + wav.length + tail.length,
      },
    }, (res) => {
      const parts = [];
      res.on('data', (part) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(parts).toString()) }));
    });
    req.on('error', reject);
    let sent = 0;
    const write = () => {
      while (sent < wav.length) {
        const piece = wav.subarray(sent, Math.min(sent + PIECE, wav.length));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end(tail);
    };
    req.write(head);
    write();
  });
}

/**
 * Runs `work` while sampling the gateway's memory; resolves with its result, the peak RSS and the
 * peak bytes held in buffers (`arrayBuffers`: how many copies of the recording were alive at once),
 * and the seconds it took.
 */
async function sampled(gateway, work) {
  const startedAt = performance.now();
  let done = false;
  let peak = 0;
  let buffers = 0;
  const sampling = (async () => {
    while (!done) {
      const usage = await gateway.memory(false);
      peak = Math.max(peak, usage.rss);
      buffers = Math.max(buffers, usage.arrayBuffers);
      await sleep(SAMPLE_EVERY_MS);
    }
  })();
  try {
    const result = await work();
    return { result, peak, buffers, seconds: (performance.now() - startedAt) / 1000 };
  } finally {
    done = true;
    await sampling;
  }
}

const mib = (bytes) => (bytes / MiB).toFixed(1);

const sim = await startService('serve-simulator.js');
const gateway = await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url }, execArgv: ['--expose-gc'] });
try {
  const seconds = (LIMIT - 44) / 16_000;
  const wav = buildWav(seconds);
  // a short recording first, so the route's code is loaded before anything is measured
  const warm = await transcribe(gateway, buildWav(1), 'bench/whisper');
  if (warm.status !== 200) throw new Error(`the warm-up answered ${warm.status}: ${JSON.stringify(warm.json)}`);
  const growths = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const { rss: idle, arrayBuffers: idleBuffers } = await gateway.memory(true);
    const run = await sampled(gateway, () => transcribe(gateway, wav, 'bench/whisper'));
    if (run.result.status !== 200) throw new Error(`the upload answered ${run.result.status}: ${JSON.stringify(run.result.json)}`);
    if (run.result.json.usage?.seconds !== seconds) throw new Error(`billed ${run.result.json.usage?.seconds} s, not ${seconds} s`);
    growths.push(run.peak - idle);
    console.log(`round ${round}: ${mib(wav.length)} MiB WAV (${seconds.toFixed(1)} s) transcribed in ${run.seconds.toFixed(2)} s; `
      + `idle RSS ${mib(idle)} MiB, peak +${mib(run.peak - idle)} MiB; buffers at most +${mib(run.buffers - idleBuffers)} MiB`);
  }
  const worst = Math.max(...growths);
  console.log(`peak growth over idle ${mib(worst)} MiB (target at most ${TARGET_MIB} MiB: ${worst <= TARGET_MIB * MiB ? 'met' : 'missed'})`);
} finally {
  await gateway.stop();
  await sim.stop();
}

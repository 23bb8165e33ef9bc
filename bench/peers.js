/**
 * `node bench/peers.js` (after `npm run build`): Switchyard as a target of the reference performance
 * harness (`../shared/peers/run.sh`, or the folder named by PEERS_DIR): the real `switchyard serve`
 * against the harness' mock upstream, beside the mock reached directly and the bare Node proxy, in
 * one run, the gateway pinned alone on its core.
 *
 * The harness is copied to a scratch folder (PEERS_WORK, default $TMPDIR/switchyard-peers) and its
 * dependencies installed there once. Switchyard serves one model (`bench/mini` → the mock's
 * `gpt-4o-mini`) from a SQLite file copied fresh for every start, with an account funded far beyond
 * the run; rate limits are out of reach, so the limiter still runs on every request and refuses
 * none. Every other setting is the default (log level included).
 *
 * The harness' summary and ratio tables are written into bench/README.md (between the
 * `peers-results` markers) with the machine line it printed; BENCH_README=0 only prints them.
 * The harness' own knobs (ROUNDS, DURATION, MODES, …) pass through.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReadmeResults } from './readme-results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PEERS_DIR = process.env.PEERS_DIR ?? join(ROOT, '..', 'shared', 'peers');
const WORK = process.env.PEERS_WORK ?? join(tmpdir(), 'switchyard-peers');
const PORT = 18090;
const MODEL = 'bench/mini';
const CLI = join(ROOT, 'bin', 'switchyard.js');

if (!existsSync(join(PEERS_DIR, 'run.sh'))) throw new Error(`no peers harness at ${PEERS_DIR} (set PEERS_DIR)`);
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('build first: npm run build');

const harness = join(WORK, 'harness');
const state = join(WORK, 'switchyard');
mkdirSync(WORK, { recursive: true });
if (!existsSync(join(harness, 'node_modules'))) {
  cpSync(PEERS_DIR, harness, { recursive: true });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: harness, stdio: 'inherit' });
}

rmSync(state, { recursive: true, force: true });
mkdirSync(state, { recursive: true });
const config = join(state, 'bench.yaml');
writeFileSync(config, `settings:
  rate_limits:
    per_key_per_minute: 100000000
    per_address_per_minute: 100000000
  prober:
    enabled: false
providers:
  - slug: mock
    name: Mock upstream
    api: openai
    base_url: http://127.0.0.1:18080/v1
    data_policy: { training: false, retention_days: 0 }
    compliance: { zdr: true, hipaa: false }
    datacenters: [US]
models:
  - id: ${MODEL}
    name: "Bench: Mini"
    created: 2025-06-01
    description: The peers harness' mock model.
    endpoints:
      - provider: mock
        upstream_model: gpt-4o-mini
        context_length: 128000
        max_completion_tokens: 4096
        supported_parameters: [max_tokens, temperature, stream_options]
        pricing: { prompt: "0.0000005", completion: "0.0000015" }
`);
const fresh = join(state, 'fresh.db');
const created = JSON.parse(execFileSync('node', [CLI, 'admin', 'account', 'create', '--name', 'peers', '--credits', '1000000000', '--json', '--database', `sqlite:${fresh}`], { encoding: 'utf8' }));
// run.sh starts the gateway fresh for every round: each start gets a copy of the funded database
const serve = join(state, 'serve.sh');
writeFileSync(serve, `#!/bin/bash
cp '${fresh}' '${state}/run.db' && rm -f '${state}/run.db-wal' '${state}/run.db-shm'
exec node '${CLI}' serve --config '${config}' --port ${PORT} --database 'sqlite:${state}/run.db' --key-store 'sqlite:${state}/keys.db'
`);
chmodSync(serve, 0o755);

const run = spawnSync('bash', ['run.sh'], {
  cwd: harness,
  stdio: 'inherit',
  env: {
    ...process.env,
    TARGETS: process.env.TARGETS ?? 'direct bare switchyard',
    CUSTOM_NAME: 'switchyard',
    CUSTOM_CMD: serve,
    CUSTOM_PORT: String(PORT),
    CUSTOM_PATH: '/api/v1/chat/completions',
    CUSTOM_HEADERS: `authorization: Bearer ${created.key}`,
    BENCH_MODEL: MODEL,
  },
});
if (run.status !== 0) throw new Error(`run.sh exited with ${run.status}`);

const results = readFileSync(join(harness, 'results.md'), 'utf8');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const report = [
  `Switchyard \`${commit}\` in \`../shared/peers/run.sh\` (\`node bench/peers.js\`). ${section(results, 'Run `')}`,
  '',
  '### Summary (mean over rounds)',
  '',
  table(results, '## Summary'),
  '',
  '### Ratios',
  '',
  table(results, '## Ratios'),
].join('\n');
console.log(`\n${report}`);
if (process.env.BENCH_README !== '0') await writeReadmeResults(report, { name: 'peers-results', heading: 'The peers harness (latest run)' });

/** The first two lines of the paragraph of `markdown` starting with `prefix`: the run, the machine and the load generator. */
function section(markdown, prefix) {
  return markdown.split('\n\n').find((paragraph) => paragraph.startsWith(prefix))?.split('\n').slice(0, 2).join(' ') ?? '';
}

/** The first table after `heading`. */
function table(markdown, heading) {
  const lines = markdown.slice(markdown.indexOf(heading)).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  if (first < 0) return '';
  const after = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  return lines.slice(first, after < 0 ? undefined : after).join('\n');
}

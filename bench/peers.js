/**
 * `node bench/peers.js` (after `npm run build`): Switchyard as a target of the reference performance
 * harness (`../shared/peers/run.sh`, or the folder named by PEERS_DIR): the real `switchyard serve`
 * against the harness' mock upstream, beside the mock reached directly and the bare Node proxy, in
 * one run, the gateway pinned alone on its core.
 *
 * The harness is copied to a scratch folder (PEERS_WORK, default $TMPDIR/switchyard-peers) and its
 * dependencies installed there once. Switchyard serves one model (`bench/mini` → the mock's
 * `gpt-4o-mini`) from a SQLite file copied fresh for every start, with an account funded far beyond
 * the run and a spend limit on the key (monthly), its workspace (weekly) and the account (daily),
 * all out of reach, so every hold judges all three; rate limits are out of reach too, so the
 * limiter still runs on every request and refuses none. Every other setting is the default (log
 * level included).
 *
 * Then the large-request case, in the same invocation: the harness again, non-streamed at 32
 * connections, bare proxy and Switchyard only, with its body replaced by a 100 KB prompt and then by
 * a request offering 200 tools (a copy of run.sh that reads the body from LARGE_BODY_FILE), so the
 * cost of estimating and translating big bodies shows as CPU per request beside the bare proxy's.
 * LARGE=0 skips it.
 *
 * PEERS_POSTGRES (a server URL such as postgres://postgres@127.0.0.1:5432) serves from PostgreSQL
 * instead: a database `switchyard_peers` made afresh there, funded once and kept across the rounds;
 * its tables go to their own section of bench/README.md.
 *
 * The harness' summary and ratio tables, and the large-request table, are written into
 * bench/README.md (between the `peers-results` markers) with the machine line it printed;
 * BENCH_README=0 only prints them. The harness' own knobs (ROUNDS, DURATION, MODES, …) pass through.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { largePromptBody, manyToolsBody } from './chat-bodies.js';
import { writeReadmeResults } from './readme-results.js';
import { freshPostgresDatabase, fundedKey, MODEL, writeBenchConfig } from './peers-gateway.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PEERS_DIR = process.env.PEERS_DIR ?? join(ROOT, '..', 'shared', 'peers');
const WORK = process.env.PEERS_WORK ?? join(tmpdir(), 'switchyard-peers');
const PORT = 18090;
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
const config = writeBenchConfig(state);
const postgres = process.env.PEERS_POSTGRES;
/** The PostgreSQL server's `autovacuum` setting, read with the fresh database. */
let autovacuum;
const database = postgres ? await freshPostgresDatabase(postgres, 'switchyard_peers', (setting) => { autovacuum = setting; }) : `sqlite:${join(state, 'fresh.db')}`;
const limitedKey = fundedKey(CLI, database);
// run.sh starts the gateway fresh for every round: on SQLite each start gets a copy of the funded database
const serve = join(state, 'serve.sh');
const served = postgres ? database : `sqlite:${state}/run.db`;
writeFileSync(serve, `#!/bin/bash
${postgres ? '' : `cp '${state}/fresh.db' '${state}/run.db' && rm -f '${state}/run.db-wal' '${state}/run.db-shm'`}
exec node '${CLI}' serve --config '${config}' --port ${PORT} --database '${served}' --key-store 'sqlite:${state}/keys.db'
`);
chmodSync(serve, 0o755);

const harnessEnv = {
  ...process.env,
  TARGETS: process.env.TARGETS ?? 'direct bare switchyard',
  CUSTOM_NAME: 'switchyard',
  CUSTOM_CMD: serve,
  CUSTOM_PORT: String(PORT),
  CUSTOM_PATH: '/api/v1/chat/completions',
  CUSTOM_HEADERS: `authorization: Bearer ${limitedKey}`,
  BENCH_MODEL: MODEL,
};
runHarness('run.sh', harnessEnv);
const results = readFileSync(join(harness, 'results.md'), 'utf8');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const report = [
  `Switchyard \`${commit}\` on ${postgres ? `PostgreSQL (one instance, local server, autovacuum ${autovacuum})` : 'SQLite'} in \`../shared/peers/run.sh\` (\`node bench/peers.js\`). ${section(results, 'Run `')}`,
  '',
  '### Summary (mean over rounds)',
  '',
  table(results, '## Summary'),
  '',
  '### Ratios',
  '',
  table(results, '## Ratios'),
].join('\n');
const large = process.env.LARGE === '0' ? '' : `\n\n${largeRequests()}`;
console.log(`\n${report}${large}`);
if (process.env.BENCH_README !== '0') await writeReadmeResults(`${report}${large}`, postgres
  ? { name: 'peers-results-postgres', heading: 'The peers harness on PostgreSQL (latest run)' }
  : { name: 'peers-results', heading: 'The peers harness (latest run)' });

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

function runHarness(script, env) {
  const run = spawnSync('bash', [script], { cwd: harness, stdio: 'inherit', env });
  if (run.status !== 0) throw new Error(`${script} exited with ${run.status}`);
}

/**
 * The large-request case: a copy of run.sh whose non-streamed body is LARGE_BODY_FILE, run for each
 * body (non-streamed, 32 connections, bare and Switchyard); the table of CPU per request.
 */
function largeRequests() {
  const script = readFileSync(join(harness, 'run.sh'), 'utf8');
  const bodyLine = /^printf .*>"\$BODY_NS"$/m;
  if (!bodyLine.test(script)) throw new Error('run.sh no longer writes $BODY_NS as this script expects');
  writeFileSync(join(harness, 'run-large.sh'), script.replace(bodyLine, 'cp "$LARGE_BODY_FILE" "$BODY_NS"'));
  const cases = [
    { name: '100 KB prompt', body: largePromptBody(MODEL) },
    { name: '200 tools', body: manyToolsBody(MODEL) },
  ];
  const rows = cases.map(({ name, body }) => {
    const file = join(state, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(body));
    runHarness('run-large.sh', { ...harnessEnv, TARGETS: 'bare switchyard', MODES: 'ns', LARGE_BODY_FILE: file });
    const summary = summaryRows(readFileSync(join(harness, 'results.md'), 'utf8'));
    const of = (target) => summary.find((row) => row.target === target) ?? {};
    const bare = of('bare');
    const gateway = of('switchyard');
    const cpu = (row) => Number(row['gateway CPU µs/req']);
    return `| ${name} | ${Buffer.byteLength(JSON.stringify(body))} | ${bare['req/s']} | ${gateway['req/s']} | ${(Number(gateway['req/s']) / Number(bare['req/s'])).toFixed(2)}× | ${bare['gateway CPU µs/req']} | ${gateway['gateway CPU µs/req']} | ${(cpu(gateway) - cpu(bare)).toFixed(0)} | ${gateway['gateway peak RSS MiB']} |`;
  });
  return [
    '### Large requests (non-streamed, c=32, same invocation)',
    '',
    '| body | bytes | bare req/s | Switchyard req/s | ratio | bare CPU µs/req | Switchyard CPU µs/req | added CPU µs/req | Switchyard peak RSS MiB |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/** The rows of the harness' summary table, keyed by its column names. */
function summaryRows(markdown) {
  const lines = table(markdown, '## Summary').split('\n');
  const cells = (line) => line.split('|').slice(1, -1).map((cell) => cell.trim());
  const [header, , ...rows] = lines;
  const names = cells(header ?? '');
  return rows.map((line) => Object.fromEntries(cells(line).map((cell, index) => [names[index], cell])));
}

/**
 * `node bench/lean-bound.js`: a bound, not a gateway. The plainest server that does a billing
 * gateway's durable work for one chat completion, to measure against the peers harness' bare proxy
 * what such work costs at the least, whatever the design. It is never part of the product.
 *
 * Per request it:
 * - serves `node:http` and finds the caller's account by the key's SHA-256 in a map;
 * - parses the body and checks its model and messages;
 * - reserves the request's most cost in memory against the account's balance;
 * - sends the body upstream with undici (model swapped), reads and parses the reply;
 * - settles in SQLite (WAL, `synchronous = NORMAL`, as the gateway): the generation's row (13
 *   columns, two indexes besides its key), the account's balance and six spend rows, in one
 *   `BEGIN IMMEDIATE … COMMIT` per turn of the event loop, before the reply is written;
 * - writes the reply with its generation id and provider, and one log line a turn.
 *
 * Streamed, it reads the upstream's frames as they come, writes each again with its generation id,
 * model and provider, writes the pending row before the first byte (the commit marker, in the same
 * batches), settles at the end and writes the usage frame and `[DONE]`.
 *
 * It leaves out what the gateway must also do: rate and spend limits, the plan and failover, the
 * prompt estimate, admission of every field, translation between dialects, the full record, aborts,
 * the metrics, CORS and the drain. So the gateway cannot be cheaper than this.
 *
 * LEAN_PORT (default 18092), LEAN_UPSTREAM (default http://127.0.0.1:18080), LEAN_KEY (the bearer
 * key it accepts, default `sk-lean`), LEAN_DATABASE (a SQLite file, default a fresh temporary one).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, writeSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'undici';

const PORT = Number(process.env.LEAN_PORT ?? 18092);
const upstream = new Pool(process.env.LEAN_UPSTREAM ?? 'http://127.0.0.1:18080', { connections: 128, keepAliveTimeout: 60_000 });
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const keys = new Map([[sha256(process.env.LEAN_KEY ?? 'sk-lean'), 'acct-1']]);
const accounts = new Map([['acct-1', { balance: 10n ** 15n, reserved: 0n }]]);
const PRICE = { prompt: 1n, completion: 2n };
const MOST_TOKENS = 4096n;

const db = new Database(process.env.LEAN_DATABASE ?? join(mkdtempSync(join(tmpdir(), 'lean-bound-')), 'lean.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS generations (id TEXT PRIMARY KEY, account_id TEXT, key_id TEXT, model TEXT, provider TEXT,
  status TEXT, streamed INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER, cost_units TEXT, created_at INTEGER, latency_ms INTEGER, finish_reason TEXT);
  CREATE INDEX IF NOT EXISTS generations_account ON generations (account_id, created_at);
  CREATE INDEX IF NOT EXISTS generations_key ON generations (key_id, created_at);
  CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, balance_units TEXT);
  CREATE TABLE IF NOT EXISTS spend (scope TEXT, owner TEXT, day INTEGER, units TEXT, PRIMARY KEY (scope, owner, day));
  INSERT OR IGNORE INTO accounts VALUES ('acct-1', '${accounts.get('acct-1').balance}');`);
const writeRow = db.prepare(`INSERT INTO generations VALUES (?, ?, ?, ?, 'mock', ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET status = excluded.status, prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
  cost_units = excluded.cost_units, latency_ms = excluded.latency_ms, finish_reason = excluded.finish_reason`);
const writeBalance = db.prepare('UPDATE accounts SET balance_units = ? WHERE id = ?');
const addSpend = db.prepare(`INSERT INTO spend VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET units = CAST(CAST(units AS INTEGER) + CAST(excluded.units AS INTEGER) AS TEXT)`);

/** Writes waiting for this turn's transaction, with what to do once it committed. */
let batch = [];
const log = openSync('/dev/null', 'a');
let logLines = '';

function commitSoon(write) {
  return new Promise((resolve) => {
    if (batch.length === 0) setImmediate(commitBatch);
    batch.push({ write, resolve });
  });
}

function commitBatch() {
  const writes = batch;
  batch = [];
  db.exec('BEGIN IMMEDIATE');
  for (const { write } of writes) write();
  db.exec('COMMIT');
  for (const { resolve } of writes) resolve();
  writeSync(log, logLines);
  logLines = '';
}

/** The settlement: the final row, the balance and the spend of the key, the workspace and the account, each its day and its lifetime. */
function settle(call, usage, finish) {
  const account = accounts.get(call.accountId);
  const cost = BigInt(usage.prompt_tokens ?? 0) * PRICE.prompt + BigInt(usage.completion_tokens ?? 0) * PRICE.completion;
  account.reserved -= call.held;
  account.balance -= cost;
  const day = Math.floor(Date.now() / 86_400_000);
  logLines += `${JSON.stringify({ generation: call.id, status: 200, cost: String(cost), ms: Date.now() - call.at })}\n`;
  return commitSoon(() => {
    writeRow.run(call.id, call.accountId, call.keyHash, call.model, 'success', call.streamed, usage.prompt_tokens, usage.completion_tokens, String(cost), call.at, Date.now() - call.at, finish);
    writeBalance.run(String(account.balance), call.accountId);
    for (const scope of ['key', 'workspace', 'account']) for (const at of [day, 0]) addSpend.run(scope, call.accountId, at, String(cost));
  });
}

function refuse(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: status, message } }));
}

async function serve(req, res) {
  const keyHash = sha256((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  const accountId = keys.get(keyHash);
  if (!accountId) return refuse(res, 401, 'No such key');
  let text = '';
  for await (const chunk of req) text += chunk;
  const body = JSON.parse(text);
  if (typeof body.model !== 'string' || !Array.isArray(body.messages)) return refuse(res, 400, 'model and messages are required');
  const account = accounts.get(accountId);
  const held = BigInt(text.length) * PRICE.prompt + MOST_TOKENS * PRICE.completion;
  if (account.balance - account.reserved < held) return refuse(res, 402, 'Insufficient credit');
  account.reserved += held;
  const call = { id: `gen-${randomBytes(10).toString('hex')}`, accountId, keyHash, model: body.model, streamed: body.stream === true ? 1 : 0, held, at: Date.now() };
  const reply = await upstream.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, model: 'mock-model' }) });
  if (!call.streamed) {
    const answer = await reply.body.json();
    await settle(call, answer.usage ?? {}, answer.choices?.[0]?.finish_reason ?? null);
    res.writeHead(200, { 'content-type': 'application/json', 'x-generation-id': call.id });
    res.end(JSON.stringify({ ...answer, id: call.id, model: call.model, provider: 'mock' }));
    return;
  }
  await commitSoon(() => writeRow.run(call.id, accountId, keyHash, call.model, 'pending', 1, null, null, '0', call.at, null, null));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-generation-id': call.id });
  let usage = {};
  let finish = null;
  let rest = '';
  for await (const chunk of reply.body) {
    const frames = (rest + chunk).split('\n\n');
    rest = frames.pop();
    let out = '';
    for (const frame of frames) {
      const data = frame.slice(6);
      if (data === '[DONE]') continue;
      const event = JSON.parse(data);
      if (event.usage) usage = event.usage;
      finish = event.choices?.[0]?.finish_reason ?? finish;
      if (event.choices?.length > 0) out += `data: ${JSON.stringify({ ...event, id: call.id, model: call.model, provider: 'mock' })}\n\n`;
    }
    if (out) res.write(out);
  }
  await settle(call, usage, finish);
  res.end(`data: ${JSON.stringify({ id: call.id, model: call.model, provider: 'mock', choices: [], usage })}\n\ndata: [DONE]\n\n`);
}

http
  .createServer((req, res) => {
    serve(req, res).catch((error) => {
      if (!res.headersSent) refuse(res, 500, String(error));
      else res.destroy();
    });
  })
  .listen(PORT, '127.0.0.1', () => console.log(`lean bound on http://127.0.0.1:${PORT}`));

/**
 * Switchyard as the peers harness serves it (bench/peers.js, bench/compare-serves.js): one model,
 * `bench/mini`, pointing at the harness' mock upstream, rate limits out of reach (the limiter still
 * runs), the prober off; an account funded far beyond any run, with a spend limit on its key, its
 * workspace and itself, all out of reach, so every hold judges all three.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MODEL = 'bench/mini';
const OUT_OF_REACH_USD = '1000000000';

/** Writes the catalogue and settings into `folder` (the mock at 127.0.0.1:18080); returns its path. */
export function writeBenchConfig(folder) {
  const config = join(folder, 'bench.yaml');
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
        supported_parameters: [max_tokens, temperature, stream_options, tools, tool_choice]
        pricing: { prompt: "0.0000005", completion: "0.0000015" }
`);
  return config;
}

/** Funds an account on `database` with the switchyard CLI at `cli`, its limits out of reach; returns its key. */
export function fundedKey(cli, database) {
  const admin = (...args) => execFileSync('node', [cli, 'admin', ...args, '--database', database], { encoding: 'utf8' });
  const created = JSON.parse(admin('account', 'create', '--name', 'peers', '--credits', OUT_OF_REACH_USD, '--json'));
  // a spend limit on every scope, far out of reach: each hold checks all three, none refuses
  admin('limit', 'set', '--account', created.account_id, '--usd', OUT_OF_REACH_USD, '--reset', 'daily');
  admin('limit', 'set', '--workspace', created.workspace_id, '--usd', OUT_OF_REACH_USD, '--reset', 'weekly');
  return JSON.parse(admin('key', 'create', '--account', created.account_id, '--limit', OUT_OF_REACH_USD, '--limit-reset', 'monthly', '--json')).key;
}

/**
 * An empty database `name` on the PostgreSQL server at `server`, made afresh; its URL. `autovacuum`
 * hears the server's setting: every hold and settlement leaves a dead row behind, and without
 * autovacuum (PostgreSQL's default is on) the tables the ledger reads grow with the run.
 */
export async function freshPostgresDatabase(server, name, autovacuum = () => undefined) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
    await client.query(`CREATE DATABASE ${name}`);
    autovacuum((await client.query('SHOW autovacuum')).rows[0]?.autovacuum ?? 'unknown');
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

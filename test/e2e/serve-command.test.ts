import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { openStore } from '../../src/store/store.js';
import { runCli, spawnServe, type CliOutcome } from '../support/cli-child.js';
import { catalogueYaml, type ModelSpec } from './harness.js';

const CHAT_MODEL: ModelSpec = { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] };
const NEW_MODEL: ModelSpec = { id: 'acme/new', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=2' }] };

/** Each test starts the command line in a process of its own, which loads its sources first. */
const CHILD_TIMEOUT_MS = 60_000;

let dir: string;
let sim: RunningSimulator;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-serve-'));
  sim = await startSimulator({ port: 0 });
  config = join(dir, 'config.yaml');
  await writeFile(config, catalogueYaml(sim.url, [CHAT_MODEL]));
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** What a refused start must look like: exit 2, one line on stderr, no stack trace. */
function expectRefusal(outcome: CliOutcome, line: string | RegExp): void {
  expect(outcome.code).toBe(2);
  expect(outcome.stderr.split('\n').filter((text) => text !== '')).toEqual([expect.stringMatching(line)]);
  expect(outcome.stderr).not.toMatch(/\n\s+at /);
}

describe('serve: a start that cannot succeed is one line naming the option, exit 2', () => {
  it('an unreachable Redis is refused naming --redis, without its password', async () => {
    const outcome = await runCli(['serve', '--config', config, '--port', '0', '--redis', 'redis://:hunter2@127.0.0.1:1']);
    expectRefusal(outcome, /^--redis: cannot connect to redis:\/\/:\*\*\*@127\.0\.0\.1:1: .*ECONNREFUSED/);
    expect(outcome.stderr + outcome.stdout).not.toContain('hunter2');
  }, CHILD_TIMEOUT_MS);

  it('a malformed Redis URL is refused naming SWITCHYARD_REDIS_URL when it came from there', async () => {
    expectRefusal(await runCli(['serve', '--config', config, '--port', '0'], { env: { SWITCHYARD_REDIS_URL: 'http://127.0.0.1:6379' } }), /^SWITCHYARD_REDIS_URL: unsupported URL http:\/\/127\.0\.0\.1:6379: use redis:\/\/host:port/);
  }, CHILD_TIMEOUT_MS);

  it('a port that is not a number is refused naming PORT when it came from there', async () => {
    expectRefusal(await runCli(['serve', '--config', config], { env: { PORT: '99999' } }), /^PORT: not a port number: "99999"$/);
  }, CHILD_TIMEOUT_MS);

  it('an unreachable PostgreSQL server is refused naming the variable it came from, without its password', async () => {
    const outcome = await runCli(['serve', '--config', config, '--port', '0'], { env: { SWITCHYARD_DATABASE_URL: 'postgres://app:hunter2@127.0.0.1:1/app' } });
    expectRefusal(outcome, /^SWITCHYARD_DATABASE_URL: cannot open postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/app: .*ECONNREFUSED/);
    expect(outcome.stderr + outcome.stdout).not.toContain('hunter2');
  }, CHILD_TIMEOUT_MS);

  it('a key store that cannot be opened is refused naming --key-store, or SWITCHYARD_KEY_STORE_URL when it came from there', async () => {
    const database = `sqlite:${join(dir, 'keys-refused.db')}`;
    expectRefusal(await runCli(['serve', '--config', config, '--database', database, '--port', '0', '--key-store', 'mysql://h/keys']), /^--key-store: unsupported database URL/);
    const outcome = await runCli(['serve', '--config', config, '--database', database, '--port', '0'], { env: { SWITCHYARD_KEY_STORE_URL: 'postgres://app:hunter2@127.0.0.1:1/keys' } });
    expectRefusal(outcome, /^SWITCHYARD_KEY_STORE_URL: cannot open postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/keys: .*ECONNREFUSED/);
    expect(outcome.stderr + outcome.stdout).not.toContain('hunter2');
  }, CHILD_TIMEOUT_MS);

  it('a malformed SWITCHYARD_MASTER_KEY is refused naming the variable, never showing it', async () => {
    const database = `sqlite:${join(dir, 'master-refused.db')}`;
    const outcome = await runCli(['serve', '--config', config, '--database', database, '--port', '0'], { env: { SWITCHYARD_MASTER_KEY: 'too-short-to-be-a-key' } });
    expectRefusal(outcome, /^SWITCHYARD_MASTER_KEY: must be 32 bytes in base64/);
    expect(outcome.stderr + outcome.stdout).not.toContain('too-short-to-be-a-key');
  }, CHILD_TIMEOUT_MS);
});

describe('serve: SIGHUP reloads the config file', () => {
  it('the process keeps serving, logs the reload, and serves the new catalogue', async () => {
    const database = `sqlite:${join(dir, 'sighup.db')}`;
    const store = await openStore(database);
    const account = await createAccount(store, { name: 'sighup', creditsUsd: '5' });
    await store.close();
    const served = await spawnServe(['--config', config, '--database', database, '--port', '0']);
    const chat = async (model: string) => (await fetch(`${served.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
    })).status;
    try {
      const reloaded = (line: string) => line.includes('"trigger":"SIGHUP"') && line.includes('catalogue reloaded');
      served.child.kill('SIGHUP');
      await served.lineMatching(reloaded);
      expect(await chat('acme/chat')).toBe(200);
      expect(await chat('acme/new')).toBe(404);

      await writeFile(config, catalogueYaml(sim.url, [CHAT_MODEL, NEW_MODEL]));
      const before = served.lines.filter(reloaded).length;
      served.child.kill('SIGHUP');
      await served.lineMatching((line) => reloaded(line) && served.lines.filter(reloaded).length > before);
      expect(await chat('acme/new')).toBe(200);
      expect(served.child.exitCode).toBeNull();
    } finally {
      await served.stop();
      await writeFile(config, catalogueYaml(sim.url, [CHAT_MODEL]));
    }
  }, CHILD_TIMEOUT_MS);
});

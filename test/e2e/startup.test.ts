import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startGateway, type GatewayOptions } from '../../src/runtime/gateway.js';
import { StartupError } from '../../src/runtime/startup-error.js';
import { catalogueYaml, type ModelSpec } from './harness.js';

const MODELS: ModelSpec[] = [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }];

let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-startup-'));
  config = join(dir, 'config.yaml');
  await writeFile(config, catalogueYaml('http://127.0.0.1:9', MODELS));
});

afterAll(async () => rm(dir, { recursive: true, force: true }));

/** The one line a start that cannot succeed ends with (the command line prints it and exits 2). */
async function refusal(options: GatewayOptions): Promise<string> {
  const started = startGateway({ configPath: config, databaseUrl: 'sqlite::memory:', port: 0, logger: pino({ level: 'silent' }), env: {}, ...options });
  const error: unknown = await started.then(async (gateway) => {
    await gateway.close();
    throw new Error('the gateway started');
  }, (failure: unknown) => failure);
  expect(error).toBeInstanceOf(StartupError);
  return (error as StartupError).message;
}

describe('start-up problems name the option at fault and the cause', () => {
  it('a database URL of another kind names --database and the forms it takes', async () => {
    expect(await refusal({ databaseUrl: 'mysql://db/app' })).toBe('--database: unsupported database URL "mysql://db/app": use sqlite:PATH, sqlite::memory: or postgres://…');
  });

  it('a SQLite file that cannot be created names --database', async () => {
    // its directory would have to be where a file is
    expect(await refusal({ databaseUrl: `sqlite:${join(config, 'db.sqlite')}` })).toMatch(/^--database: cannot open sqlite:.*db\.sqlite: EEXIST: file already exists, mkdir /);
  });

  it('a missing config file names --config and the file', async () => {
    const missing = join(dir, 'missing.yaml');
    expect(await refusal({ configPath: missing })).toBe(`--config: ${missing}: cannot read the file (ENOENT)`);
  });

  it('a config file with bad settings names the first problem\'s path and how to list them all', async () => {
    const bad = join(dir, 'bad-settings.yaml');
    await writeFile(bad, catalogueYaml('http://127.0.0.1:9', MODELS, { settings: { rate_limits: { per_key_per_minute: 0 }, server: { drain_grace_ms: 'soon' } } }));
    expect(await refusal({ configPath: bad })).toBe(
      `--config: ${bad}: settings.rate_limits.per_key_per_minute: must be a positive integer (and 1 more; \`switchyard catalogue check ${bad}\` lists them all)`,
    );
  });

  it('a bad setting in the environment names the variable', async () => {
    expect(await refusal({ env: { SWITCHYARD_DRAIN_GRACE_MS: 'soon' } })).toBe('SWITCHYARD_DRAIN_GRACE_MS: must be a positive integer, not "soon"');
  });

  it('a port in use names --port', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      expect(await refusal({ port })).toBe(`--port: 127.0.0.1:${port} is already in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('start-up warnings', () => {
  it('a provider whose api_key_env is unset is warned about, naming the variable and the provider', async () => {
    const document = parse(catalogueYaml('http://127.0.0.1:9', MODELS)) as { providers: Record<string, unknown>[] };
    document.providers = document.providers.map((provider, index) => (index === 0 ? { ...provider, api_key_env: 'SIM_A_KEY' } : provider));
    const file = join(dir, 'credentials.yaml');
    await writeFile(file, stringify(document));
    const lines: { level: number; msg: string; provider?: string; variable?: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
    const gateway = await startGateway({ configPath: file, databaseUrl: 'sqlite::memory:', port: 0, logger, env: {} });
    await gateway.close();
    expect(lines.filter((line) => line.level === 40)).toEqual([expect.objectContaining({
      provider: 'sim-a',
      variable: 'SIM_A_KEY',
      msg: 'providers[0].api_key_env: SIM_A_KEY is not set: requests to provider sim-a carry no credential',
    })]);
  });

  it('beforeListen runs once, after every route is ready and before the port opens', async () => {
    const lines: { msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) });
    const listeningLines = () => lines.filter((line) => line.msg.startsWith('Server listening')).length;
    const calls: number[] = [];
    const gateway = await startGateway({ configPath: config, databaseUrl: 'sqlite::memory:', port: 0, logger, env: {}, beforeListen: async () => {
      calls.push(listeningLines());
    } });
    try {
      expect(calls).toEqual([0]);
      expect(listeningLines()).toBe(1);
      expect((await fetch(`${gateway.url}/api/v1/models`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});

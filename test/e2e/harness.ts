import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach } from 'vitest';
import { pino, type Logger } from 'pino';
import { stringify } from 'yaml';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { createAccount } from '../../src/accounts/accounts.js';
import type { HttpSettings } from '../../src/http/services.js';
import type { FiguresOptions } from '../../src/runtime/build-services.js';

export interface EndpointSpec {
  provider: string;
  upstream_model: string;
  context_length?: number;
  max_completion_tokens?: number;
  supported_parameters?: string[];
  pricing?: Record<string, unknown>;
  [member: string]: unknown;
}

export interface ModelSpec {
  id: string;
  endpoints: EndpointSpec[];
  [member: string]: unknown;
}

export interface HarnessOptions {
  /**
   * Models of the test catalogue; providers `sim-a`, `sim-b`, `sim-c` (OpenAI-compatible wire) and
   * `sim-anthropic`, `sim-anthropic-b` (Anthropic Messages wire) and `sim-cohere` (Cohere-style rerank
   * wire) all point at one simulator.
   */
  models: ModelSpec[];
  /** Credits of the test account, USD decimal string (default "10"). */
  credits?: string;
  settings?: Partial<HttpSettings>;
  /** The config file's `settings:` block, as written in YAML. */
  fileSettings?: Record<string, unknown>;
  /** The gateway's environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** The gateway's database (default in-memory SQLite). */
  databaseUrl?: string;
  /** The gateway's key store (default in memory, under a master key made for the process: nothing written to disk). */
  keyStoreUrl?: string;
  /** The gateway's logger (default silent). */
  logger?: Logger;
  /** Fields replacing or adding to the test providers' own, by provider slug. */
  providers?: Record<string, Record<string, unknown>>;
  /** The measured figures' clock and sync interval (default the real clock, every 10 s). */
  figures?: FiguresOptions;
}

export interface Harness {
  gateway: RunningGateway;
  sim: RunningSimulator;
  /** `http://127.0.0.1:PORT/api/v1` */
  baseUrl: string;
  key: string;
  accountId: string;
  workspaceId: string;
  configPath: string;
  client: OpenAI;
  close(): Promise<void>;
}

export const DEFAULT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice'];

export const PROVIDER_NAMES: Record<string, string> = { 'sim-a': 'Sim A', 'sim-b': 'Sim B', 'sim-c': 'Sim C' };

/** Providers speaking the Anthropic Messages wire (`api: anthropic`), served by the same simulator. */
export const ANTHROPIC_PROVIDER_NAMES: Record<string, string> = { 'sim-anthropic': 'Sim Anthropic', 'sim-anthropic-b': 'Sim Anthropic B' };

/** A provider speaking the Cohere-style rerank wire (`api: cohere`, base URL ending in `/v2`), served by the same simulator. */
export const COHERE_PROVIDER_NAMES: Record<string, string> = { 'sim-cohere': 'Sim Cohere' };

/** The catalogue YAML for `models`, every provider served by the simulator at `simUrl`, with a `settings:` block and provider fields if given. */
export function catalogueYaml(simUrl: string, models: ModelSpec[], extra: { settings?: Record<string, unknown>; providers?: Record<string, Record<string, unknown>> } = {}): string {
  const { settings, providers: overrides = {} } = extra;
  const apis = [
    ...Object.entries(PROVIDER_NAMES).map(([slug, name]) => ({ slug, name, api: 'openai' })),
    ...Object.entries(ANTHROPIC_PROVIDER_NAMES).map(([slug, name]) => ({ slug, name, api: 'anthropic' })),
    ...Object.entries(COHERE_PROVIDER_NAMES).map(([slug, name]) => ({ slug, name, api: 'cohere' })),
  ];
  const providers = apis.map(({ slug, name, api }) => ({
    slug,
    name,
    api,
    base_url: api === 'cohere' ? `${simUrl}/v2` : `${simUrl}/v1`,
    data_policy: { training: false, retention_days: 0 },
    compliance: { zdr: true, hipaa: false },
    datacenters: ['US'],
    ...overrides[slug],
  }));
  const fullModels = models.map((model) => ({
    name: model.id,
    created: '2025-06-01',
    ...model,
    endpoints: model.endpoints.map((endpoint) => ({
      context_length: 32768,
      supported_parameters: DEFAULT_PARAMETERS,
      pricing: { prompt: '0.000001', completion: '0.000002' },
      ...endpoint,
    })),
  }));
  return stringify({ providers, models: fullModels, ...(settings && { settings }) });
}

/** A gateway on an ephemeral port over in-memory SQLite (or `databaseUrl`), a simulator, and a funded account. */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const sim = await startSimulator({ port: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-e2e-'));
  const configPath = join(dir, 'catalogue.yaml');
  await writeFile(configPath, catalogueYaml(sim.url, options.models, { ...(options.fileSettings && { settings: options.fileSettings }), ...(options.providers && { providers: options.providers }) }));
  const gateway = await startGateway({
    configPath,
    port: 0,
    databaseUrl: options.databaseUrl ?? 'sqlite::memory:',
    keyStoreUrl: options.keyStoreUrl ?? 'sqlite::memory:',
    logger: options.logger ?? pino({ level: 'silent' }),
    settings: options.settings ?? {},
    ...(options.env && { env: options.env }),
    ...(options.figures && { figures: options.figures }),
  });
  const account = await createAccount(gateway.store, { name: 'e2e', creditsUsd: options.credits ?? '10' });
  const baseUrl = `${gateway.url}/api/v1`;
  return {
    gateway,
    sim,
    baseUrl,
    key: account.key,
    accountId: account.accountId,
    workspaceId: account.workspaceId,
    configPath,
    client: new OpenAI({ baseURL: baseUrl, apiKey: account.key, maxRetries: 0 }),
    async close() {
      await gateway.close();
      await sim.close();
    },
  };
}

/** The shared error envelope of spec 02. */
export interface ErrorEnvelope {
  error: { code: number; message: string; metadata: { error_type: string; [member: string]: unknown } };
}

export interface RawRequest {
  /** Default POST when there is a body, else GET. */
  method?: string;
  /** Path under the API root, e.g. `/chat/completions`. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with a JSON content type (for malformed or oversized bodies). */
  rawBody?: string;
  /** Bearer key; default the harness key; null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/** One plain HTTP exchange with the gateway, for what the official client hides. */
export async function send(harness: Harness, request: RawRequest): Promise<RawReply> {
  const key = request.key === undefined ? harness.key : request.key;
  const headers: Record<string, string> = { ...request.headers };
  if (key !== null && headers.authorization === undefined) headers.authorization = `Bearer ${key}`;
  const payload = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${harness.baseUrl}${request.path}`, {
    method: request.method ?? (payload === undefined ? 'GET' : 'POST'),
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  return rawReply(response);
}

/** A fetched response read whole: status, headers, text, and the JSON when the text is JSON. */
export async function rawReply(response: Response): Promise<RawReply> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A raw SSE body split into its comment lines and `data:` payloads, in arrival order. */
export interface SseReading {
  /** Every non-empty line as received. */
  lines: string[];
  /** `data:` payloads, `[DONE]` included. */
  data: string[];
  comments: string[];
}

export function readSse(text: string): SseReading {
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  return {
    lines,
    data: lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()),
    comments: lines.filter((line) => line.startsWith(':')),
  };
}

/** The account's balance and reserved credit, in 10^-24 USD, straight from the store. */
export async function accountMoney(harness: Harness, accountId = harness.accountId): Promise<{ balance: bigint; reserved: bigint }> {
  const row = await harness.gateway.store.db
    .selectFrom('accounts')
    .select(['balance_units', 'reserved_units'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  // holds kept in the process (SQLite) reserve in memory, beside what the database reserves
  const inProcess = harness.gateway.services.ledger.reservedInProcess?.(accountId) ?? 0n;
  return { balance: BigInt(row.balance_units), reserved: BigInt(row.reserved_units) + inProcess };
}

/** A generation record as `GET /generation` shows it to its account (the members the media tests read). */
export interface GenerationView {
  status: string;
  provider_name: string | null;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  cost_usd: string;
  cost_lines: Array<{ key: string; quantity: string; amount_usd: string | null }>;
}

/** The generation `id` of the harness' account, read through `GET /generation`. */
export async function generationRecord(harness: Harness, id: string): Promise<GenerationView> {
  const reply = await send(harness, { path: `/generation?id=${id}` });
  if (reply.status !== 200) throw new Error(`GET /generation?id=${id} answered ${reply.status}: ${reply.text}`);
  return (reply.json as { data: GenerationView }).data;
}

/**
 * Gateways whose measured figures run on the test's clock, starting at `startsAt`: a minute passes
 * when the test closes it, and the sync the background task runs every few seconds is run by the
 * test. The gateways `start` opens (on in-memory SQLite, or `databaseUrl`) close after each test;
 * `restartableDatabase` is a SQLite file a second gateway can open after the first.
 */
export function figuresOnTestClock(models: ModelSpec[], startsAt: string) {
  const clock = { now: Date.parse(startsAt) };
  const figures = { now: () => clock.now, syncIntervalMs: 3_600_000 };
  const opened: Harness[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((harness) => harness.close()));
  });
  return {
    clock,
    async start(databaseUrl = 'sqlite::memory:'): Promise<Harness> {
      const harness = await startHarness({ models, databaseUrl, figures });
      opened.push(harness);
      return harness;
    },
    /** Closes one gateway before the test ends (as a restart does). */
    async close(harness: Harness): Promise<void> {
      opened.splice(opened.indexOf(harness), 1);
      await harness.close();
    },
    /** The minute closes and the figures sync. */
    async closeMinute(harness: Harness): Promise<void> {
      clock.now += 60_000;
      await harness.gateway.services.state.figures.sync();
    },
    async restartableDatabase(): Promise<string> {
      return `sqlite:${join(await mkdtemp(join(tmpdir(), 'switchyard-figures-')), 'db.sqlite')}`;
    },
  };
}

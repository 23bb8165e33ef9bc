import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedBody } from './chat-route.js';
import { handleChat } from './chat-route.js';
import { handleCompletion } from './completion-route.js';
import { handleMessages } from './messages-route.js';
import { handleSpeech } from './speech-route.js';
import { handleEmbeddings } from './embeddings-route.js';
import { handleRerank, type RerankWire } from './rerank-route.js';
import { handleImageGeneration, serveImageFile } from './images-route.js';
import { IMAGE_FILES_PATH, ImageStore } from './image-store.js';
import { handleTranscription } from './transcription-route.js';
import { readUploadForm } from './upload-form.js';
import { isPlainObject } from '../core/plain-object.js';
import { sendError, sendJson } from './json-reply.js';
import { modelListBody } from './model-list.js';
import type { RecordedRequest } from './request-log.js';
import { RequestLog } from './request-log.js';

export type { RecordedRequest } from './request-log.js';

export interface SimulatorOptions {
  /** 0 = ephemeral. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:9101 (no trailing slash, no /v1). */
  url: string;
  port: number;
  close(): Promise<void>;
  requests(): RecordedRequest[];
  clearRequests(): void;
  /**
   * From now on requests naming upstream model `model` are answered as if they named `as` (a
   * provider fixing, or breaking, what it serves behind the same name); `as` undefined ends that.
   * The same as `PUT /_sim/models/{model}` with `{"as": …}` and `DELETE /_sim/models/{model}`.
   */
  alias(model: string, as: string | undefined): void;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)).toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): ParsedBody {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

interface SimState {
  log: RequestLog;
  sequence: number;
  /** Upstream model names answered as another one, set through `/_sim/models/{name}`. */
  aliases: Map<string, string>;
  /** Pictures of `response_format: "url"` replies, served under IMAGE_FILES_PATH. */
  images: ImageStore;
}

const ALIAS_PATH = '/_sim/models/';

/** `PUT /_sim/models/{name}` with `{"as": "chat;tools"}` sets an alias, `DELETE` removes it. */
function routeAlias(res: ServerResponse, state: SimState, request: { method: string; path: string; body: unknown }): void {
  const name = decodeURIComponent(request.path.slice(ALIAS_PATH.length));
  if (request.method === 'DELETE') state.aliases.delete(name);
  else if (request.method === 'PUT' && isPlainObject(request.body) && typeof request.body.as === 'string' && request.body.as !== '') {
    state.aliases.set(name, request.body.as);
  } else return sendError(res, 400, 'PUT a JSON body {"as": "<upstream model>"}, or DELETE', { param: 'as' });
  res.writeHead(204).end();
}

/** The body as the handlers read it: the model renamed where an alias says so. */
function aliased(parsed: ParsedBody | undefined, aliases: ReadonlyMap<string, string>): ParsedBody | undefined {
  if (aliases.size === 0 || !parsed?.ok || !isPlainObject(parsed.value) || typeof parsed.value.model !== 'string') return parsed;
  const as = aliases.get(parsed.value.model);
  return as === undefined ? parsed : { ok: true, value: { ...parsed.value, model: as } };
}

/** Rerank wires: Cohere-style under the API root, OpenAI-compatible beside `/v1/chat/completions` (and bare, as vLLM serves it). */
const RERANK_PATHS: Readonly<Record<string, RerankWire>> = { '/v2/rerank': 'cohere', '/v1/rerank': 'openai', '/rerank': 'openai' };

/** `POST /v1/audio/transcriptions`: a multipart upload, read bounded before the JSON routes read anything. */
async function routeTranscription(req: IncomingMessage, res: ServerResponse, state: SimState, path: string): Promise<void> {
  const read = await readUploadForm(req);
  const headers = flatHeaders(req);
  if (read.kind !== 'form') {
    state.log.add({ path, headers, body: null, receivedAt: Date.now() });
    return handleTranscription(res, read);
  }
  const { fields, file } = read.form;
  state.log.add({ path, headers, body: { ...fields, ...(file && { file: { name: file.name, bytes: file.bytes.length } }) }, receivedAt: Date.now() });
  const model = typeof fields.model === 'string' ? state.aliases.get(fields.model) : undefined;
  return handleTranscription(res, model === undefined ? read : { kind: 'form', form: { fields: { ...fields, model }, file } });
}

async function route(req: IncomingMessage, res: ServerResponse, state: SimState): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
  const method = req.method ?? 'GET';
  if (path === '/_sim/requests' && method === 'GET') return sendJson(res, 200, state.log.list());
  if (path === '/_sim/requests' && method === 'DELETE') {
    state.log.clear();
    res.writeHead(204).end();
    return;
  }
  if (path === '/v1/audio/transcriptions' && method === 'POST') return routeTranscription(req, res, state, path);
  if (path.startsWith(IMAGE_FILES_PATH) && method === 'GET') return serveImageFile(res, decodeURIComponent(path.slice(IMAGE_FILES_PATH.length)), state.images);
  const text = method === 'GET' || method === 'HEAD' ? '' : await readBody(req);
  const received = text === '' ? undefined : parseBody(text);
  const body = received === undefined ? null : received.ok ? received.value : text;
  if (path.startsWith(ALIAS_PATH)) return routeAlias(res, state, { method, path, body });
  const headers = flatHeaders(req);
  state.log.add({ path, headers, body, receivedAt: Date.now() });
  const parsed = aliased(received, state.aliases);
  if (path === '/v1/chat/completions' && method === 'POST') {
    state.sequence += 1;
    return handleChat(res, parsed ?? { ok: false }, state.sequence);
  }
  if (path === '/v1/completions' && method === 'POST') {
    state.sequence += 1;
    return handleCompletion(res, parsed ?? { ok: false }, state.sequence);
  }
  if (path === '/v1/messages' && method === 'POST') {
    state.sequence += 1;
    return handleMessages(res, parsed ?? { ok: false }, { sequence: state.sequence, headers });
  }
  if (path === '/v1/audio/speech' && method === 'POST') return handleSpeech(res, parsed ?? { ok: false });
  if (path === '/v1/embeddings' && method === 'POST') return handleEmbeddings(res, parsed ?? { ok: false });
  if (path === '/v1/images/generations' && method === 'POST') {
    state.sequence += 1;
    return handleImageGeneration(res, parsed ?? { ok: false }, { sequence: state.sequence, origin: `http://${headers.host ?? 'localhost'}`, store: state.images });
  }
  if (RERANK_PATHS[path] && method === 'POST') return handleRerank(res, parsed ?? { ok: false }, RERANK_PATHS[path], (state.sequence += 1));
  if (path === '/v1/models' && method === 'GET') return sendJson(res, 200, modelListBody());
  sendError(res, 404, `Invalid URL (${method} ${path})`);
}

function onFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof BodyTooLarge) sendError(res, 413, 'Request body too large');
  else sendError(res, 500, error instanceof Error ? error.message : 'simulator failure');
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the provider simulator: OpenAI-compatible chat, completions, embeddings, speech, image
 * generation and transcription, Anthropic Messages and rerank, with scripted behaviours.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const state: SimState = { log: new RequestLog(), sequence: 0, aliases: new Map(), images: new ImageStore() };
  const server = createServer((req, res) => {
    route(req, res, state).catch((error: unknown) => onFailure(res, error));
  });
  // Longer than common client pools keep idle sockets, so clients never reuse a closing one.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = await listen(server, options.port ?? 0, host);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    requests: () => state.log.list(),
    clearRequests: () => state.log.clear(),
    alias: (model, as) => {
      if (as === undefined) state.aliases.delete(model);
      else state.aliases.set(model, as);
    },
    close: () => new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    }),
  };
}

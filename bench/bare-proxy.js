/**
 * The baseline: a reverse proxy with no features. node:http in, an undici keep-alive pool out;
 * the request body is streamed upstream and the response is piped back chunk by chunk as it
 * arrives. Whatever the gateway costs beyond this is the price of its features.
 */
import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

/** Hop-by-hop headers a proxy must not forward (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwardable(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

async function forward(pool, req, res) {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const upstream = await pool.request({
    path: req.url ?? '/',
    method: req.method ?? 'GET',
    headers: forwardable(req.headers),
    body: hasBody ? req : undefined,
  });
  res.writeHead(upstream.statusCode, forwardable(upstream.headers));
  await pipeline(upstream.body, res);
}

/**
 * Starts the proxy on `port` (0 = ephemeral) forwarding every request to `target` (an origin).
 * @param {{ target: string, port?: number, host?: string, connections?: number }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startBareProxy(options) {
  const host = options.host ?? '127.0.0.1';
  const pool = new Pool(options.target, { connections: options.connections ?? 256, keepAliveTimeout: 30_000 });
  const server = createServer((req, res) => {
    forward(pool, req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream failed');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address();
  return {
    url: `http://${host}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
    },
  };
}

import { connect } from 'node:net';
import { expect } from 'vitest';
import type { ErrorEnvelope, Harness } from './harness.js';

export interface HeldReply {
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

export interface HeldRequest {
  /** Sends the rest of the request and reads the whole reply. */
  finish(): Promise<HeldReply>;
}

/**
 * A POST on its own connection whose head is sent except its final line. The server counts the
 * connection busy, so a drain does not close it as idle, and the request itself arrives only when
 * `finish` is called: during the drain, when the test says so.
 */
export async function holdRequest(harness: Harness, path: string, body: unknown): Promise<HeldRequest> {
  const { hostname, port, pathname } = new URL(`${harness.baseUrl}${path}`);
  const payload = JSON.stringify(body);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write([
    `POST ${pathname} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    `Authorization: Bearer ${harness.key}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(payload)}`,
    '',
  ].join('\r\n'));
  return {
    async finish() {
      socket.end(`Connection: close\r\n\r\n${payload}`);
      await closed;
      return parseReply(Buffer.concat(received).toString('utf8'));
    },
  };
}

/** A reply with a Content-Length, as every JSON refusal is sent. */
function parseReply(text: string): HeldReply {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no reply head in ${JSON.stringify(text)}`);
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  const length = Number(headers['content-length'] ?? Number.NaN);
  if (!Number.isInteger(length)) throw new Error(`reply without a Content-Length: ${statusLine}`);
  const body = Buffer.from(text.slice(split + 4)).subarray(0, length).toString('utf8');
  return { status, headers, json: JSON.parse(body) as unknown };
}

/** A request that arrived during a drain is refused with the restart 503: repeat in 5 seconds. */
export function expectRestartRefusal(refused: HeldReply): void {
  expect(refused.status).toBe(503);
  expect(refused.headers['retry-after']).toBe('5');
  expect(refused.headers['x-should-retry']).toBe('true');
  expect((refused.json as ErrorEnvelope).error.metadata.error_type).toBe('provider_overloaded');
}

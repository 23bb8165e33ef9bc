import { connect } from 'node:net';

export interface RawHttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/** How long the client waits for a reply before it half-closes its side (a bound, not an assertion). */
const HALF_CLOSE_AFTER_MS = 1_000;

/**
 * Writes `bytes` to the gateway as they are, whatever HTTP they break, and reads the first reply on
 * the connection; undefined when the connection closed without one. The client half-closes after a
 * moment, so a request whose body never completes still ends.
 */
export function rawExchange(baseUrl: string, bytes: string | Buffer): Promise<RawHttpReply | undefined> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    const timer = setTimeout(() => socket.end(), HALF_CLOSE_AFTER_MS);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseReply(Buffer.concat(received).toString('utf8')));
    });
    socket.write(bytes);
  });
}

function parseReply(text: string): RawHttpReply | undefined {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? Number.NaN);
  const rest = text.slice(split + 4);
  const body = Number.isInteger(length) ? Buffer.from(rest).subarray(0, length).toString('utf8') : rest;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}

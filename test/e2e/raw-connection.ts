import { connect, type Socket } from 'node:net';

/** The first HTTP response read off a raw connection. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawConnection {
  socket: Socket;
  /** Writes `text` as is. */
  write(text: string): void;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the server has closed the connection, with everything it sent. */
  closed: Promise<string>;
}

/** A plain TCP connection to the gateway of `baseUrl`, for what an HTTP client would never send. */
export async function openRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const text = () => Buffer.concat(chunks).toString('latin1');
  const closed = new Promise<string>((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text()));
  });
  return { socket, write: (data) => socket.write(data, 'latin1'), received: text, closed };
}

/** Sends `request` as is on a new connection and reads until the server closes it. */
export async function rawExchange(baseUrl: string, request: string): Promise<string> {
  const connection = await openRaw(baseUrl);
  connection.write(request);
  return connection.closed;
}

/** Resolves once `connection` has received a whole response head (or closed). */
export async function untilAnswered(connection: RawConnection): Promise<void> {
  while (!connection.received().includes('\r\n\r\n') && !connection.socket.closed) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Parses the first response in `text`; its body is read by its Content-Length. */
export function firstAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length']);
  if (!Number.isInteger(length)) throw new Error(`response without a Content-Length: ${statusLine}`);
  const body = Buffer.from(text.slice(split + 4), 'latin1').subarray(0, length).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}

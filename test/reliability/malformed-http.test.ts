import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../e2e/harness.js';
import { DATABASE_ENGINES } from '../support/database-urls.js';
import { ledgerProblem } from './ledger-check.js';
import { rawExchange } from './raw-exchange.js';
import { startReliabilityHarness, type ReliabilityHarness } from './reliability-harness.js';
import { FUZZ_MODELS } from './route-corpus.js';

/**
 * Requests that break HTTP itself, below anything a fetch client can send: the gateway answers each
 * with a 4xx in the shared envelope (written by the server's client-error handler, since Node's HTTP
 * parser refuses them before any route), stays up and holds nothing. The HTTP parser does not depend
 * on the database, so these run on SQLite only.
 */

const CREDITS = '10';
const BODY = JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello' }] });

interface MalformedCase {
  name: string;
  bytes(key: string): string;
}

function head(key: string, extra: string, length = Buffer.byteLength(BODY)): string {
  return `POST /api/v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
}

const CASES: MalformedCase[] = [
  { name: 'a header section over 16 KiB', bytes: (key) => head(key, `X-Title: ${'a'.repeat(20_000)}\r\n`) + BODY },
  { name: 'a header value holding DEL (0x7f)', bytes: (key) => head(key, 'X-Title: a\u007fb\r\n') + BODY },
  { name: 'a header line without a colon', bytes: (key) => head(key, 'NoColonHere\r\n') + BODY },
  { name: 'an unknown HTTP version', bytes: () => 'POST /api/v1/chat/completions HTTP/9.9\r\nHost: gateway\r\n\r\n' },
  { name: 'a request line that is not HTTP', bytes: () => 'hello there\r\n\r\n' },
  {
    name: 'a chunk size that is not hexadecimal',
    bytes: (key) => `POST /api/v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${BODY}\r\n0\r\n\r\n`,
  },
  {
    name: 'both Transfer-Encoding and Content-Length',
    bytes: (key) => `POST /api/v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
  },
  { name: 'a body that stops short of its Content-Length', bytes: (key) => head(key, '', Buffer.byteLength(BODY) + 10) + BODY },
];

const sqlite = DATABASE_ENGINES.find((engine) => engine.name === 'sqlite');

describe('requests that break HTTP', () => {
  let harness: ReliabilityHarness;

  beforeAll(async () => {
    if (!sqlite) throw new Error('no SQLite engine');
    harness = await startReliabilityHarness({ engine: sqlite, models: FUZZ_MODELS, credits: CREDITS });
  });

  afterAll(async () => harness?.close());

  it('each is answered with a 4xx, the gateway stays up and nothing is held or charged', async () => {
    for (const malformed of CASES) {
      const reply = await rawExchange(harness.gateway.url, malformed.bytes(harness.key));
      expect(reply?.status, malformed.name).toBeGreaterThanOrEqual(400);
      expect(reply?.status, malformed.name).toBeLessThan(500);
      const root = await send(harness, { path: '/', key: null });
      expect(root.status, `GET /api/v1/ after ${malformed.name}`).toBe(200);
    }
    expect(await ledgerProblem(harness, CREDITS)).toBeUndefined();
  });

  // Known defect (HTTP layer, being fixed): Node-level 400/431 answers outside the shared envelope.
  it.each(CASES)('$name is refused in the shared envelope', async (malformed) => {
    const reply = await rawExchange(harness.gateway.url, malformed.bytes(harness.key));
    expect(reply?.json).toMatchObject({
      error: { code: reply?.status, message: expect.any(String) as unknown, metadata: { error_type: expect.any(String) as unknown } },
    });
  });
});

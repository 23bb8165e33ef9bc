import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { send, startHarness, type Harness } from './harness.js';
import { anthropicClient, type MessagesErrorBody } from './messages-client.js';
import { agentRequest } from './messages-agent-request.js';

/** Errors of the messages routes as clients written for the Anthropic API read them. */
let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      { id: 'acme/tiny', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', context_length: 64 }] },
    ],
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

/** The error a call rejected with, as the official client raises it. */
async function raised(call: () => Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  const error = await call().then(() => undefined, (reason: unknown) => reason);
  if (!(error instanceof Anthropic.APIError)) throw new Error(`expected an API error, got ${String(error)}`);
  return error;
}

function dialectBody(error: InstanceType<typeof Anthropic.APIError>): MessagesErrorBody {
  return error.error as MessagesErrorBody;
}

const hello = { model: 'acme/chat', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello' }] };

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';

/** The official client with its default retries, counting the requests it sends. */
function retryingClient(): { client: Anthropic; sent: () => number } {
  let sent = 0;
  const client = new Anthropic({
    baseURL: `${harness.gateway.url}/api`,
    apiKey: harness.key,
    maxRetries: 2,
    fetch: async (url, init) => {
      sent += 1;
      return fetch(url, init);
    },
  });
  return { client, sent: () => sent };
}

describe('the official client reads error.type on every error of the messages routes', () => {
  it('a malformed member is a BadRequestError whose error.type is invalid_request_error, naming the field', async () => {
    const error = await raised(() => client.messages.create({ ...hello, thinking: { type: 'enabled', budget_tokens: 'lots' as unknown as number } }));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.type).toBe('invalid_request_error');
    expect(dialectBody(error)).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(/^thinking\.budget_tokens: /),
        code: 400,
        metadata: { error_type: 'invalid_request', field: 'thinking.budget_tokens' },
      },
    });
  });

  it('the same on a streamed agent turn, before its stream opened', async () => {
    const body = { ...agentRequest('acme/chat', 'Plan'), output_config: { format: { type: 'xml' } } } as unknown as ReturnType<typeof agentRequest>;
    const error = await raised(async () => client.beta.messages.create(body));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(dialectBody(error).error).toMatchObject({ type: 'invalid_request_error', code: 400, metadata: { field: 'output_config.format.type' } });
  });

  it('a bad key is an AuthenticationError whose error.type is authentication_error, streamed or not', async () => {
    const stranger = anthropicClient(harness, { apiKey: 'sk-nothing' });
    const whole = await raised(() => stranger.messages.create(hello));
    expect(whole).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(dialectBody(whole).error).toMatchObject({ type: 'authentication_error', code: 401, metadata: { error_type: 'authentication' } });
    const streamed = await raised(() => stranger.messages.stream(hello).finalMessage());
    expect(streamed).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(streamed.type).toBe('authentication_error');
  });

  it('an unknown model is a NotFoundError whose error.type is not_found_error', async () => {
    const error = await raised(() => client.messages.create({ ...hello, model: 'acme/nothing' }));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.type).toBe('not_found_error');
  });

  it('count_tokens answers in the same envelope: a bad key, a malformed body', async () => {
    const stranger = anthropicClient(harness, { apiKey: 'sk-nothing' });
    const unauthenticated = await raised(() => stranger.messages.countTokens({ model: 'acme/chat', messages: hello.messages }));
    expect(unauthenticated.type).toBe('authentication_error');
    const malformed = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: [{ role: 'narrator', content: 'x' }] } });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 400, metadata: { field: 'messages[0].role' } } });
  });

  it('malformed JSON is answered in the dialect envelope too', async () => {
    const reply = await send(harness, { path: '/messages', rawBody: '{"model": ' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'body: malformed JSON', code: 400 } });
  });

  it('a prompt no endpoint window holds says "prompt is too long", as the Anthropic API words it', async () => {
    const error = await raised(() => client.messages.create({ ...hello, model: 'acme/tiny', messages: [{ role: 'user', content: 'word '.repeat(200) }] }));
    expect(error.status).toBe(503);
    expect(error.message).toContain('prompt is too long');
    expect(dialectBody(error).error.metadata.error_type).toBe('no_route');
  });
});

describe('a refusal a repeat cannot change tells the client not to repeat it', () => {
  it('no endpoint reads the pasted screenshot: 503 with x-should-retry false, and the client with retries asks once', async () => {
    const { client: retrying, sent } = retryingClient();
    const screenshot = {
      ...agentRequest('acme/chat', 'What does it show?'),
      messages: [{ role: 'user' as const, content: [{ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: PIXEL } }, { type: 'text' as const, text: 'What does it show?' }] }],
    };
    const error = await raised(async () => retrying.beta.messages.create(screenshot));
    expect(error.status).toBe(503);
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(dialectBody(error).error).toMatchObject({ type: 'api_error', metadata: { error_type: 'no_route' } });
    expect(sent()).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { AnswerMeter } from '../../src/core/answer-meter.js';
import { visibleToCaller } from '../../src/core/caller-view.js';
import { collectReply } from '../../src/core/collect.js';
import type { CoreEvent } from '../../src/core/events.js';
import { failureToError } from '../../src/core/failure-error.js';
import type { CoreRequest } from '../../src/core/request.js';
import type { ReplyAccounting, ReplyMeta } from '../../src/dialects/shared/reply-meta.js';
import { ChatRequestSchema, type ChatRequestBody } from '../../src/dialects/chat/schema.js';
import { decodeChatRequest } from '../../src/dialects/chat/decode.js';
import { CompletionsRequestSchema, type CompletionsRequestBody } from '../../src/dialects/completions/schema.js';
import { decodeCompletionsRequest } from '../../src/dialects/completions/decode.js';
import { MessagesRequestSchema, type MessagesRequestBody } from '../../src/dialects/messages/schema.js';
import { decodeMessagesRequest } from '../../src/dialects/messages/decode.js';
import { ResponsesRequestSchema, type ResponsesRequestBody } from '../../src/dialects/responses/schema.js';
import { decodeResponsesRequest } from '../../src/dialects/responses/decode.js';
import type { DialectBinding } from '../../src/dialects/shared/dialect-binding.js';
import { chatDialect } from '../../src/dialects/chat/binding.js';
import { completionsDialect } from '../../src/dialects/completions/binding.js';
import { messagesDialect } from '../../src/dialects/messages/binding.js';
import { responsesDialect } from '../../src/dialects/responses/binding.js';
import { expectGolden, goldenFilesUnder, goldenJson, UPDATING_GOLDEN } from '../support/golden-file.js';
import { DIALECT_SCENARIOS, type DialectScenario } from './dialect-scenarios.js';

/**
 * The golden dialect suite: every scripted answer (dialect-scenarios.ts) through every dialect's
 * stream writer and reply encoder, driven as the shared runners drive them, compared byte for byte
 * with `test/fixtures/golden/<dialect>/<scenario>.sse|.json`. `UPDATE_GOLDEN=1` rewrites the files.
 */

/** Who answered: fixed, so the files do not depend on the clock or on id minting. */
const META: ReplyMeta = { id: 'gen-golden0001', created: 1767225600, model: 'acme/claude', provider: 'Alpha Cloud' };

/** The settled charge the runner passes to the encoders, in USD. */
const COST = 0.000042;

/**
 * The `honoured` verdict the stream runner passes beside usage: every fixed body sets
 * `temperature` and a stop sequence, members routing requires, so both are honoured.
 */
const HONOURED = { temperature: true, stop: true };

const SYSTEM = 'You answer travel questions briefly.';
const QUESTION = 'What is the weather in Paris, and the time in Tokyo?';
const WEATHER_PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const TIME_PARAMETERS = { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] };

interface GoldenDialect {
  name: 'chat' | 'completions' | 'messages' | 'responses';
  schema: TSchema;
  /** A small fixed request body of the dialect. */
  body(stream: boolean): Record<string, unknown>;
  decode(body: Record<string, unknown>): CoreRequest;
  /** As the dialect's route binds it (src/http/routes/<dialect>.ts). */
  binding: DialectBinding;
}

const DIALECTS: readonly GoldenDialect[] = [
  {
    name: 'chat',
    schema: ChatRequestSchema,
    body: (stream) => ({
      model: 'acme/claude',
      messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: QUESTION }],
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: WEATHER_PARAMETERS } },
        { type: 'function', function: { name: 'get_time', parameters: TIME_PARAMETERS } },
      ],
      temperature: 0.2,
      stop: ['\n\n'],
      max_tokens: 256,
      stream,
    }),
    decode: (body) => decodeChatRequest(body as ChatRequestBody, {}),
    binding: chatDialect,
  },
  {
    name: 'completions',
    schema: CompletionsRequestSchema,
    body: (stream) => ({ model: 'acme/claude', prompt: QUESTION, temperature: 0.2, stop: ['\n\n'], max_tokens: 256, stream }),
    decode: (body) => decodeCompletionsRequest(body as CompletionsRequestBody, {}),
    binding: completionsDialect,
  },
  {
    name: 'messages',
    schema: MessagesRequestSchema,
    body: (stream) => ({
      model: 'acme/claude',
      system: SYSTEM,
      messages: [{ role: 'user', content: QUESTION }],
      tools: [
        { name: 'get_weather', input_schema: WEATHER_PARAMETERS },
        { name: 'get_time', input_schema: TIME_PARAMETERS },
      ],
      temperature: 0.2,
      stop_sequences: ['\n\n'],
      max_tokens: 256,
      stream,
    }),
    decode: (body) => decodeMessagesRequest(body as MessagesRequestBody, {}),
    binding: messagesDialect,
  },
  {
    name: 'responses',
    schema: ResponsesRequestSchema,
    body: (stream) => ({
      model: 'acme/claude',
      instructions: SYSTEM,
      input: QUESTION,
      tools: [
        { type: 'function', name: 'get_weather', parameters: WEATHER_PARAMETERS },
        { type: 'function', name: 'get_time', parameters: TIME_PARAMETERS },
      ],
      temperature: 0.2,
      max_output_tokens: 256,
      stream,
    }),
    decode: (body) => decodeResponsesRequest(body as ResponsesRequestBody, {}),
    binding: responsesDialect,
  },
];

/** The usage the runners settle and report: what the answer meter bills for the events. */
async function billedUsage(events: readonly CoreEvent[], cutShort: boolean): Promise<ReplyAccounting['usage']> {
  const meter = new AnswerMeter();
  for (const event of events) meter.observe(event);
  return meter.billedUsage({ cutShort, promptEstimate: 30 });
}

/**
 * The SSE text of a committed stream, as run-stream.ts writes it: `open()`, each event the caller
 * may see, then `finish` with the settled accounting; an error event, or a part the dialect refuses,
 * ends the stream with `fail` instead.
 */
async function streamText(dialect: GoldenDialect, events: readonly CoreEvent[]): Promise<string> {
  const request = dialect.decode(dialect.body(true));
  const writer = dialect.binding.createStreamWriter(META, request);
  let text = writer.open();
  for (const event of events) {
    if (event.type === 'error') return text + writer.fail(failureToError(event.failure, META.provider));
    const refusal = dialect.binding.refuseOutput?.(event);
    if (refusal) return text + writer.fail(refusal);
    if (visibleToCaller(event, request)) text += writer.write(event);
  }
  const usage = await billedUsage(events, false);
  return text + writer.finish({ usage, cost: COST, honoured: HONOURED });
}

/** The whole reply, as run-complete.ts sends it; undefined when the dialect refuses a part of it. */
async function replyJson(dialect: GoldenDialect, events: readonly CoreEvent[]): Promise<string | undefined> {
  const request = dialect.decode(dialect.body(false));
  if (events.some((event) => dialect.binding.refuseOutput?.(event))) return undefined;
  const collected = collectReply(events.filter((event) => visibleToCaller(event, request)));
  const usage = await billedUsage(events, false);
  return goldenJson(dialect.binding.encodeReply(collected, META, { usage, cost: COST }, request));
}

/** Whole replies with no golden file, and why. */
const NO_REPLY_GOLDEN: Readonly<Partial<Record<GoldenDialect['name'], Readonly<Record<string, string>>>>> = {
  messages: { audio: 'generated audio is refused with 422 in the shared envelope before the reply encoder runs' },
};

function wholeReplySkip(dialect: GoldenDialect, scenario: DialectScenario): string | undefined {
  return scenario.streamOnly ?? NO_REPLY_GOLDEN[dialect.name]?.[scenario.name];
}

const CELLS = DIALECTS.flatMap((dialect) => DIALECT_SCENARIOS.map((scenario) => ({ dialect, scenario, label: `${dialect.name} ${scenario.name}` })));

describe('dialect encoders match their golden files', () => {
  it.each(CELLS)('$label stream', async ({ dialect, scenario }) => {
    expectGolden(`${dialect.name}/${scenario.name}.sse`, await streamText(dialect, scenario.events));
  });

  it.each(CELLS.filter(({ dialect, scenario }) => wholeReplySkip(dialect, scenario) === undefined))('$label reply', async ({ dialect, scenario }) => {
    const json = await replyJson(dialect, scenario.events);
    expect(json, 'the dialect refused a part of the reply: name it in NO_REPLY_GOLDEN').toBeDefined();
    expectGolden(`${dialect.name}/${scenario.name}.json`, json ?? '');
  });

  it.each(CELLS.filter(({ dialect, scenario }) => NO_REPLY_GOLDEN[dialect.name]?.[scenario.name] !== undefined))(
    '$label has no reply golden because the dialect refuses the reply',
    async ({ dialect, scenario }) => {
      expect(await replyJson(dialect, scenario.events)).toBeUndefined();
    },
  );
});

describe('the golden suite itself', () => {
  it.each(DIALECTS)('the fixed $name body passes the route schema', async (dialect) => {
    // The schemas use ajv's discriminator keyword, as the app's validator is configured for it.
    const app = Fastify({ ajv: { customOptions: { discriminator: true } } });
    app.post('/', { schema: { body: dialect.schema } }, async () => ({}));
    for (const stream of [false, true]) {
      const reply = await app.inject({ method: 'POST', url: '/', payload: dialect.body(stream) });
      expect(reply.statusCode, reply.body).toBe(200);
    }
    await app.close();
  });

  it.skipIf(UPDATING_GOLDEN)('every golden file belongs to a scenario (none left behind by a rename)', () => {
    const expected = CELLS.flatMap(({ dialect, scenario }) => [
      `${dialect.name}/${scenario.name}.sse`,
      ...(wholeReplySkip(dialect, scenario) === undefined ? [`${dialect.name}/${scenario.name}.json`] : []),
    ]).sort();
    expect(DIALECTS.flatMap((dialect) => goldenFilesUnder(dialect.name)).sort()).toEqual(expected);
  });
});

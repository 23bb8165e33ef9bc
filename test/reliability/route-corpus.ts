import { DEFAULT_PARAMETERS, type ModelSpec } from '../e2e/harness.js';

/**
 * The fuzz suite's catalogue and, for every route, valid requests that a gateway serves with a 2xx:
 * the seeds every mutation starts from.
 */

const CHAT_PARAMETERS = [
  ...DEFAULT_PARAMETERS, 'top_k', 'frequency_penalty', 'presence_penalty', 'repetition_penalty', 'min_p', 'logprobs',
  'top_logprobs', 'response_format', 'reasoning', 'parallel_tool_calls', 'user',
];

const SPEECH_ENDPOINT = {
  input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: ['seed'],
  speech_envelope: { voices: ['alloy'], codecs: ['wav', 'mp3'], min_speed: 0.5, max_speed: 2 }, pricing: { character: '0.00001' },
};

export const FUZZ_MODELS: ModelSpec[] = [
  { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3', supported_parameters: CHAT_PARAMETERS }] },
  { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;tokens=3', supported_parameters: CHAT_PARAMETERS }] },
  { id: 'acme/base', endpoints: [{ provider: 'sim-b', upstream_model: 'base;tokens=3', text_completions: true, supported_parameters: ['max_tokens', 'temperature', 'stop', 'seed'] }] },
  {
    id: 'acme/embed',
    endpoints: [{ provider: 'sim-a', upstream_model: 'embed', context_length: 8192, input_modalities: ['text'], output_modalities: ['embeddings'], supported_parameters: [], pricing: { prompt: '0.0000001' } }],
  },
  { id: 'acme/rerank', endpoints: [{ provider: 'sim-cohere', upstream_model: 'rerank', context_length: 8192, output_modalities: ['rerank'], supported_parameters: [], pricing: { request: '0.001' } }] },
  { id: 'acme/judge', endpoints: [{ provider: 'sim-c', upstream_model: 'judge;labels', supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'] }] },
  { id: 'acme/tts', endpoints: [{ provider: 'sim-a', upstream_model: 'tts', ...SPEECH_ENDPOINT }] },
];

export interface RouteSeed {
  /** Path under the API root. */
  path: string;
  method: 'GET' | 'POST';
  /** The valid JSON body mutations start from (POST only). */
  body?: Record<string, unknown>;
  /** Whether a request on this route is recorded as a generation under its X-Generation-Id. */
  recorded: boolean;
  /** Whether every reply carries X-Generation-Id (spec 01 "What the service does" 6). */
  inference: boolean;
  /** A public catalogue read: no key needed, so a wrong one is not refused. */
  open?: true;
  /** A key management route: presented with the account's management key. */
  management?: true;
}

const TOOL_PARAMETERS = { type: 'object', properties: { q: { type: 'string', description: 'what to look up' } }, required: ['q'] };

const chat = (stream: boolean, model = 'acme/chat'): Record<string, unknown> => ({
  model,
  stream,
  ...(stream && { stream_options: { include_usage: true } }),
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Hello there' }], name: 'ada' },
    { role: 'assistant', content: 'Hi.' },
    { role: 'user', content: 'What is new?' },
  ],
  max_tokens: 16,
  temperature: 0.5,
  top_p: 0.9,
  stop: ['END'],
  seed: 7,
  tools: [{ type: 'function', function: { name: 'lookup', description: 'Look something up', parameters: TOOL_PARAMETERS } }],
  tool_choice: 'auto',
  metadata: { run: 'fuzz' },
  provider: { allow_fallbacks: true, sort: 'price' },
  user: 'fuzzer',
});

const messages = (stream: boolean, model = 'acme/chat'): Record<string, unknown> => ({
  model,
  stream,
  max_tokens: 32,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Hello there' }] },
    { role: 'assistant', content: 'Hi.' },
    { role: 'user', content: 'What is new?' },
  ],
  temperature: 0.5,
  top_k: 5,
  stop_sequences: ['END'],
  metadata: { user_id: 'fuzzer' },
  tools: [{ name: 'lookup', description: 'Look something up', input_schema: TOOL_PARAMETERS }],
  tool_choice: { type: 'auto' },
});

const responses = (stream: boolean, model = 'acme/chat'): Record<string, unknown> => ({
  model,
  stream,
  instructions: 'Be brief.',
  input: [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello there' }] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi.' }] },
    { type: 'message', role: 'user', content: 'What is new?' },
  ],
  max_output_tokens: 32,
  temperature: 0.5,
  tools: [{ type: 'function', name: 'lookup', description: 'Look something up', parameters: TOOL_PARAMETERS }],
  tool_choice: 'auto',
  text: { format: { type: 'text' } },
  store: false,
});

const inference = (path: string, body: Record<string, unknown>, recorded = true): RouteSeed => ({ path, method: 'POST', body, recorded, inference: true });

export const ROUTE_SEEDS: RouteSeed[] = [
  inference('/chat/completions', chat(false)),
  inference('/chat/completions', chat(true)),
  inference('/chat/completions', chat(true, 'acme/claude')),
  inference('/completions', { model: 'acme/base', prompt: 'Once upon a time', max_tokens: 8, temperature: 0.3, stop: '\n\n', seed: 1 }),
  inference('/completions', { model: 'acme/base', prompt: 'Once upon a time', stream: true }),
  inference('/messages', messages(false)),
  inference('/messages', messages(true, 'acme/claude')),
  inference('/messages/count_tokens', { model: 'acme/chat', system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }], tools: [{ name: 'lookup', input_schema: TOOL_PARAMETERS }] }, false),
  inference('/responses', responses(false)),
  inference('/responses', responses(true, 'acme/claude')),
  inference('/embeddings', { model: 'acme/embed', input: ['red apple', 'green pear'], encoding_format: 'float', user: 'fuzzer' }),
  inference('/rerank', { model: 'acme/rerank', query: 'red apple', documents: ['a red apple pie', { text: 'green pear' }], top_n: 1, return_documents: true }),
  inference('/systemone', {
    model: 'acme/judge',
    state: 'Customer: I was charged twice, refund me today.',
    questions: { urgency: { type: 'choice', instructions: 'How urgent is this?', criteria: { low: 'can wait a week', high: 'needs action today' } } },
    session_id: 'case-1',
  }),
  inference('/audio/speech', { model: 'acme/tts', input: 'Hello there, how are you?', voice: 'alloy', response_format: 'wav', speed: 1, seed: 3 }),
  { path: '/key', method: 'GET', recorded: false, inference: false },
  { path: '/models/user', method: 'GET', recorded: false, inference: false },
  { path: '/generation', method: 'GET', recorded: false, inference: false },
  { path: '/credits', method: 'GET', recorded: false, inference: false },
  {
    path: '/batches',
    method: 'POST',
    body: {
      endpoint: '/v1/chat/completions',
      model: 'acme/chat',
      metadata: { run: 'fuzz' },
      requests: [{ custom_id: 'first', body: chat(false) }, { custom_id: 'second', body: { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 } }],
    },
    recorded: false,
    inference: false,
  },
  { path: '/batches', method: 'GET', recorded: false, inference: false },
  { path: '/files', method: 'GET', recorded: false, inference: false },
  { path: '/activity', method: 'GET', recorded: false, inference: false },
  { path: '/keys', method: 'GET', recorded: false, inference: false, management: true },
  { path: '/keys', method: 'POST', body: { name: 'fuzzed', limit: 5, limit_reset: 'weekly', expires_at: '2099-01-01T00:00:00Z' }, recorded: false, inference: false, management: true },
  { path: '/audit', method: 'GET', recorded: false, inference: false, management: true },
  ...['/models', '/models/count', '/models/acme/chat', '/model/acme/chat', '/models/acme%2Fchat', '/models/acme/chat/endpoints', '/providers', '/families', '/stats/public', '/embeddings/models', '/speech/models']
    .map((path): RouteSeed => ({ path, method: 'GET', recorded: false, inference: false, open: true })),
];

import { stringify } from 'yaml';

/**
 * Every chat setting the simulator accepts on the OpenAI-compatible wire, so framework calls that
 * set penalties, sampling cut-offs or `parallel_tool_calls` (structured output by tool calling) are
 * served on the demo. Structured outputs are not declared: the simulator does not follow a schema.
 */
const CHAT_PARAMETERS = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format',
  'logprobs', 'top_logprobs', 'frequency_penalty', 'presence_penalty', 'repetition_penalty', 'top_k', 'min_p', 'logit_bias',
];

/** An embeddings model and a rerank model, both answered by the simulator over the OpenAI-compatible wire. */
const DEMO_OPERATION_MODELS = [
  {
    id: 'switchyard/demo-embed',
    name: 'Switchyard: Demo Embed',
    created: '2025-07-15',
    description: 'A demo embeddings model answered by the bundled provider simulator.',
    tags: ['demo', 'embeddings'],
    endpoints: [{
      provider: 'sim-alpha',
      upstream_model: 'embed;dims=256',
      context_length: 8192,
      input_modalities: ['text'],
      output_modalities: ['embeddings'],
      supported_dimensions: [64, 128, 256],
      supported_parameters: [],
      pricing: { prompt: '0.00000002' },
    }],
  },
  {
    id: 'switchyard/demo-rerank',
    name: 'Switchyard: Demo Rerank',
    created: '2025-07-15',
    description: 'A demo rerank model answered by the bundled provider simulator.',
    tags: ['demo', 'rerank'],
    endpoints: [{ provider: 'sim-alpha', upstream_model: 'rerank', context_length: 4096, output_modalities: ['rerank'], supported_parameters: [], pricing: { request: '0.001' } }],
  },
  {
    id: 'switchyard/demo-paint',
    name: 'Switchyard: Demo Paint',
    created: '2025-11-27',
    description: 'A demo image model answered by the bundled provider simulator: deterministic pictures of the size asked.',
    tags: ['demo', 'image'],
    endpoints: [{
      provider: 'sim-alpha',
      upstream_model: 'image',
      context_length: 8192,
      max_completion_tokens: 8192,
      input_modalities: ['text'],
      output_modalities: ['image'],
      supported_parameters: ['partial_images'],
      pricing: { prompt: '0.000005', image_output: '0.01', image_megapixel: '0.005', image_output_token: '0.00001' },
      image_envelope: { sizes: ['256x256', '512x512', '1024x1024', '1024x1536', '1536x1024'], formats: ['png'], max_images: 4 },
      render_parameters: { image: { quality: { type: 'string', enum: ['low', 'medium', 'high'] }, background: { type: 'string', enum: ['opaque', 'transparent'] } } },
      reference_inputs: { image: { formats: ['png', 'jpeg'], max_count: 4, max_bytes: 4 * 1024 * 1024 } },
    }],
  },
  {
    id: 'switchyard/demo-transcribe',
    name: 'Switchyard: Demo Transcribe',
    created: '2025-11-27',
    description: 'A demo transcription model answered by the bundled provider simulator: a deterministic transcript as long as the recording.',
    tags: ['demo', 'transcription'],
    endpoints: [
      {
        // Whisper-style: every format, billed per second of audio
        provider: 'sim-alpha',
        upstream_model: 'whisper',
        context_length: 448,
        input_modalities: ['audio'],
        output_modalities: ['transcription'],
        input_containers: { audio: ['wav', 'mp3', 'flac', 'ogg', 'm4a', 'webm'] },
        supported_parameters: ['timestamp_granularities'],
        supported_languages: ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'ja'],
        pricing: { audio_second: '0.0001' },
      },
      {
        // gpt-4o-transcribe-style: json and text only, billed per token, English only
        provider: 'sim-beta',
        upstream_model: 'transcribe',
        context_length: 16000,
        max_completion_tokens: 2000,
        input_modalities: ['audio'],
        output_modalities: ['transcription'],
        input_containers: { audio: ['wav', 'mp3'] },
        supported_parameters: [],
        supported_languages: ['en'],
        pricing: { prompt: '0.0000025', completion: '0.00001' },
      },
    ],
  },
];

/**
 * The catalogue of the embedded demo: three providers served by the bundled simulator (two over the
 * OpenAI-compatible wire, one over the Anthropic Messages wire), four chat models (two of them
 * reasoning; demo-chat also answers typed decisions and reads images and files, and it and demo-fast are served by two providers
 * at different prices and speeds, demo-fast free on one of them, so routing preferences and the
 * `:floor`, `:nitro` and `:free` variants choose between them), a speaking model, an embeddings model,
 * a rerank model, an image model and a transcription model. The simulator reads its behaviour from the upstream model name (`chat;tps=400`).
 */
export function demoCatalogueYaml(simulatorBaseUrl: string): string {
  const baseUrl = `${simulatorBaseUrl.replace(/\/+$/, '')}/v1`;
  const document = {
    providers: [
      demoProvider('sim-alpha', 'Sim Alpha', baseUrl, ['US']),
      demoProvider('sim-beta', 'Sim Beta', baseUrl, ['DE']),
      { ...demoProvider('sim-gamma', 'Sim Gamma', baseUrl, ['US']), api: 'anthropic' },
    ],
    models: [
      {
        id: 'switchyard/demo-chat',
        name: 'Switchyard: Demo Chat',
        created: '2025-06-01',
        family: 'switchyard-demo',
        description: 'A demo chat model answered by the bundled provider simulator.',
        tags: ['demo'],
        endpoints: [
          demoEndpoint({ provider: 'sim-alpha', upstream: 'chat;tokens=32;tps=400;labels', prompt: '0.0000005', completion: '0.0000015', inputs: ['text', 'image', 'file'] }),
          // dearer and faster: `:floor` picks Sim Alpha, `:nitro` Sim Beta once both are measured
          demoEndpoint({ provider: 'sim-beta', upstream: 'chat;tokens=32;tps=1200;labels', prompt: '0.0000008', completion: '0.000002', inputs: ['text', 'image', 'file'] }),
        ],
      },
      {
        id: 'switchyard/demo-fast',
        name: 'Switchyard: Demo Fast',
        created: '2025-06-15',
        family: 'switchyard-demo',
        description: 'A small, fast demo model answered by the bundled provider simulator.',
        tags: ['demo'],
        endpoints: [
          demoEndpoint({ provider: 'sim-alpha', upstream: 'chat;tps=2000;ttft=20', prompt: '0.0000001', completion: '0.0000004' }),
          // a free tier, slower: the cheapest by default, the only one under `:free`
          demoEndpoint({ provider: 'sim-beta', upstream: 'chat;tps=300', prompt: '0', completion: '0' }),
        ],
      },
      {
        id: 'switchyard/demo-think',
        name: 'Switchyard: Demo Think',
        created: '2025-07-01',
        family: 'switchyard-demo',
        description: 'A demo reasoning model that thinks before it answers, answered by the bundled provider simulator.',
        tags: ['demo', 'reasoning'],
        endpoints: [
          {
            ...demoEndpoint({ provider: 'sim-alpha', upstream: 'chat;reasoning=24', prompt: '0.000001', completion: '0.000004' }),
            supported_parameters: [...CHAT_PARAMETERS, 'reasoning', 'reasoning_effort'],
            reasoning: { supported_efforts: ['high', 'medium', 'low'], mandatory: false },
          },
        ],
      },
      {
        id: 'switchyard/demo-messages',
        name: 'Switchyard: Demo Messages',
        created: '2025-07-15',
        family: 'switchyard-demo',
        description: 'A demo model served over the Anthropic Messages wire, thinking when asked to, answered by the bundled provider simulator.',
        tags: ['demo', 'reasoning'],
        endpoints: [
          {
            ...demoEndpoint({ provider: 'sim-gamma', upstream: 'claude;reasoning=16;tps=400', prompt: '0.000001', completion: '0.000005' }),
            supported_parameters: ['max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning'],
            reasoning: { supported_efforts: ['high', 'medium', 'low'], mandatory: false, supports_max_tokens: true },
          },
        ],
      },
      {
        id: 'switchyard/demo-voice',
        name: 'Switchyard: Demo Voice',
        created: '2025-07-15',
        family: 'switchyard-demo',
        description: 'A demo text-to-speech model whose audio (silence) comes from the bundled provider simulator.',
        tags: ['demo', 'speech'],
        endpoints: [
          {
            provider: 'sim-alpha',
            upstream_model: 'tts',
            context_length: 4096,
            input_modalities: ['text'],
            output_modalities: ['speech'],
            supported_parameters: ['seed', 'instructions'],
            pricing: { character: '0.000015' },
            speech_envelope: { voices: ['alloy', 'verse'], default_voice: 'alloy', codecs: ['mp3', 'wav', 'pcm', 'mulaw', 'alaw'], min_speed: 0.25, max_speed: 4 },
            supports_voice_cloning: true,
            reference_inputs: { audio: { formats: ['wav', 'mp3'] } },
          },
        ],
      },
      ...DEMO_OPERATION_MODELS,
    ],
  };
  return `# Demo catalogue: every provider is the bundled simulator.\n${stringify(document, { aliasDuplicateObjects: false })}`;
}

function demoProvider(slug: string, name: string, baseUrl: string, datacenters: string[]): Record<string, unknown> {
  return {
    slug,
    name,
    api: 'openai',
    base_url: baseUrl,
    data_policy: { training: false, retention_days: 0 },
    compliance: { zdr: true, hipaa: false },
    datacenters,
  };
}

interface DemoEndpoint {
  provider: string;
  upstream: string;
  prompt: string;
  completion: string;
  /** Input modalities beside text (demo-chat reads images and files, stored ones included). */
  inputs?: string[];
}

function demoEndpoint(endpoint: DemoEndpoint): Record<string, unknown> {
  return {
    provider: endpoint.provider,
    upstream_model: endpoint.upstream,
    quantization: 'fp8',
    context_length: 131072,
    max_completion_tokens: 16384,
    input_modalities: endpoint.inputs ?? ['text'],
    output_modalities: ['text'],
    supported_parameters: CHAT_PARAMETERS,
    // the simulator counts tokens with the GPT tokenizer
    tokenizer: 'GPT',
    pricing: { prompt: endpoint.prompt, completion: endpoint.completion },
  };
}

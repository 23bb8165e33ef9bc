import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenRouter } from '@openrouter/sdk';
import { ResponseValidationError } from '@openrouter/sdk/models/errors';
import OpenAI, { NotFoundError } from 'openai';
import { startHarness, type Harness } from './harness.js';

/**
 * The catalogue as the clients that list models at start-up read it: `@openrouter/sdk` and the
 * official `openai` client, unmodified, pointed at the gateway.
 */
let harness: Harness;
let openrouter: OpenRouter;
let openai: OpenAI;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/chat', name: 'Acme: Chat', created: '2025-06-01', description: 'A chat model.', family: 'acme-chat',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat', tokenizer: 'GPT', pricing: { prompt: '0.000001', completion: '0.000002', discount: '0.1' } },
          { provider: 'sim-b', upstream_model: 'chat', tokenizer: 'GPT', pricing: { prompt: '0.000002', completion: '0.000003' } },
        ],
      },
      {
        id: 'acme/thinker', name: 'Acme: Thinker', created: '2025-07-01', description: 'A reasoning model.',
        endpoints: [{
          provider: 'sim-c', upstream_model: 'chat;reasoning=2', tokenizer: 'Qwen3', supported_parameters: ['max_tokens', 'reasoning'],
          reasoning: { supported_efforts: ['high', 'low', 'none'], mandatory: false, default_effort: 'low' },
          pricing: { prompt: '0.000004', completion: '0.000008', overrides: [{ min_prompt_tokens: 128000, prompt: '0.000006' }, { utc_start: '2200', utc_end: '0600', prompt: '0.000002' }] },
        }],
      },
    ],
  });
  openrouter = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
  openai = harness.client;
});

afterAll(async () => harness.close());

describe('@openrouter/sdk', () => {
  it('models.list() parses the list, with exact decimal prices and the reasoning controls', async () => {
    const page = (await openrouter.models.list()).result;
    expect(page.data.map((model) => model.id)).toEqual(['acme/thinker', 'acme/chat']);
    expect(page.totalCount).toBe(2);
    expect(page.links.next).toBeNull();
    const chat = page.data.find((model) => model.id === 'acme/chat');
    expect(chat?.pricing).toMatchObject({ prompt: '0.000001', completion: '0.000002', discount: 0.1 });
    expect(chat?.architecture.tokenizer).toBe('GPT');
    expect(chat?.links.details).toBe('/api/v1/models/acme/chat/endpoints');
    const thinker = page.data.find((model) => model.id === 'acme/thinker');
    expect(thinker?.reasoning).toMatchObject({ supportedEfforts: ['high', 'low', 'none'], mandatory: false, defaultEffort: 'low' });
    expect(thinker?.pricing.overrides).toEqual([{ minPromptTokens: 128000, prompt: '0.000006' }, { utcStart: 2200, utcEnd: 600, prompt: '0.000002' }]);
  });

  it('models.list() passes its filters and pages', async () => {
    const first = await openrouter.models.list({ limit: 1, sort: 'pricing-low-to-high', maxPrice: 5 });
    expect(first.result.data.map((model) => model.id)).toEqual(['acme/chat']);
    const next = new URL(first.result.links.next ?? '', harness.baseUrl);
    expect(Object.fromEntries(next.searchParams)).toEqual({ limit: '1', sort: 'pricing-low-to-high', max_price: '5', offset: '1' });
    const ids: string[] = [];
    for await (const page of await openrouter.models.list({ limit: 1 })) ids.push(...page.result.data.map((model) => model.id));
    expect(ids).toEqual(['acme/thinker', 'acme/chat']);
  });

  it('models.listForUser() parses the list the key\'s workspace sees', async () => {
    const page = await openrouter.models.listForUser({ bearer: harness.key });
    expect(page.result.data.map((model) => model.id)).toEqual(['acme/thinker', 'acme/chat']);
  });

  it('models.count() parses the total', async () => {
    expect(await openrouter.models.count()).toEqual({ data: { count: 2 } });
  });

  it('models.get() reads one model', async () => {
    const model = await openrouter.models.get({ author: 'acme', slug: 'chat' });
    expect(model.data.name).toBe('Acme: Chat');
  });

  it('providers.list() parses the providers', async () => {
    const reply = await openrouter.providers.list();
    expect(reply.data.map((provider) => provider.slug)).toContain('sim-a');
    expect(reply.data.find((provider) => provider.slug === 'sim-a')).toMatchObject({ name: 'Sim A', privacyPolicyUrl: null, datacenters: ['US'] });
  });

  it('endpoints.list() refuses only the members whose spec shape its schema does not take', async () => {
    const failure = await openrouter.endpoints.list({ author: 'acme', slug: 'chat' }).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ResponseValidationError);
    const issues = (failure as ResponseValidationError & { cause: { issues: { path: (string | number)[] }[] } }).cause.issues;
    const members = [...new Set(issues.map((issue) => String(issue.path.at(-1))))].sort();
    expect(members).toEqual(['perf_last_30m_by_workload', 'supports_tool_choice']);
    const raw = (failure as ResponseValidationError).rawValue as { data: { endpoints: { provider_slug: string }[] } };
    expect(raw.data.endpoints.map((endpoint) => endpoint.provider_slug)).toEqual(['sim-a', 'sim-b']);
  });
});

describe('the official openai client', () => {
  it('models.list() reads every served model', async () => {
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(['acme/thinker', 'acme/chat']);
  });

  it('models.retrieve() reads one model through the percent-encoded id', async () => {
    const model = await openai.models.retrieve('acme/chat');
    expect(model).toMatchObject({ id: 'acme/chat', object: 'model', owned_by: 'acme', created: Date.UTC(2025, 5, 1) / 1000 });
  });

  it('models.retrieve() of an unknown model is a NotFoundError', async () => {
    await expect(openai.models.retrieve('acme/unknown')).rejects.toBeInstanceOf(NotFoundError);
  });
});

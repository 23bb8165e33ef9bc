import { describe, expect, test } from 'vitest';
import { endpointListing } from '../../../../src/catalogue/listing/endpoint-listing.js';
import { listingOf } from '../../../../src/catalogue/listing/listing-snapshot.js';
import type { ListedModel } from '../../../../src/catalogue/listing/listed-model.js';
import { servingRevision } from '../../../../src/catalogue/serving-revision.js';
import type { EndpointEntry } from '../../../../src/catalogue/types.js';
import type { Capability } from '../../../../src/core/capability-checks.js';
import { PROBE_VERSION } from '../../../../src/core/probe-version.js';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { MemoryEndpointHealth } from '../../../../src/stats/endpoint-health.js';
import { providerDocument, endpointDocument, validCatalogue } from '../../../fixtures/catalogue/documents.js';

const catalogue = validCatalogue({
  providers: [
    { ...providerDocument('zeta'), id: 'prov-7', compliance: { zdr: true, hipaa: true, zdr_status: 'contractual' } },
    providerDocument('alpha'),
  ],
  models: [{
    id: 'acme/chat', name: 'Acme: Chat', created: '2025-06-01', description: 'Chat.',
    endpoints: [
      endpointDocument({
        provider: 'zeta', quantization: 'fp8', input_modalities: ['text', 'image'], supported_parameters: ['tool_choice', 'tools', 'reasoning'],
        reasoning: { supported_efforts: ['high', 'low', 'none'], mandatory: false }, max_prompt_tokens: 4096, supports_implicit_caching: true,
        benchmarks: [{ dataset: 'mmlu', score: 71.5, sample_count: 1000 }],
        capacity: { current: 3, total: 8, updated_at: '2025-06-02T00:00:00Z' },
        pricing: { prompt: '0.000001', completion: '0.000002', discount: '0.25' },
      }),
      endpointDocument({ provider: 'alpha', quantization: 'bf16', pricing: { prompt: '0.000003', completion: '0.000004' } }),
      endpointDocument({ provider: 'alpha', quantization: 'fp8', pricing: { prompt: '0.000002', completion: '0.000004' } }),
    ],
  }],
});

const listed = listingOf(catalogue).byId.get('acme/chat') as ListedModel;

function listing(state = new LiveEndpointState()) {
  return endpointListing(listed, state) as { endpoints: Record<string, unknown>[] } & Record<string, unknown>;
}

describe('endpoint listing', () => {
  test('the envelope holds the model identity, its architecture and family, and a benchmarks note', () => {
    expect(Object.keys(listing())).toEqual(['id', 'name', 'created', 'description', 'architecture', 'family', 'endpoints', 'benchmarks_note']);
  });

  test('endpoints are ordered by provider slug, then by charged price', () => {
    expect(listing().endpoints.map((endpoint) => endpoint.tag)).toEqual(['alpha/fp8', 'alpha/bf16', 'zeta/fp8']);
  });

  test('an entry has the spec members in order, up to the render timing samples', () => {
    const keys = Object.keys(listing().endpoints[2] ?? {});
    expect(keys.slice(0, keys.indexOf('render_timing_samples') + 1)).toEqual([
      'name', 'model_id', 'model_name', 'provider_name', 'provider_slug', 'provider_id', 'tag',
      'context_length', 'max_completion_tokens', 'max_prompt_tokens', 'quantization', 'supported_parameters',
      'input_modalities', 'declared_input_modalities', 'capability_qualification', 'reference_inputs', 'render_parameters',
      'image_envelope', 'video_envelope', 'mesh_envelope', 'speech_envelope', 'reasoning', 'video_generation', 'refuted_reasoning_efforts',
      'pricing', 'status', 'uptime_last_5m', 'uptime_last_5m_samples', 'uptime_last_30m', 'uptime_last_30m_samples',
      'uptime_last_1d', 'uptime_last_1d_samples', 'uptime_last_7d', 'uptime_last_7d_samples', 'ttft_last_30m', 'ttft_last_1d',
      'response_last_30m', 'response_last_1d', 'latency_last_30m', 'latency_last_30m_samples', 'throughput_last_1d',
      'throughput_last_1d_samples', 'throughput_last_30m', 'throughput_last_30m_samples', 'perf_last_30m_by_workload',
      'render_timing', 'render_timing_samples',
    ]);
  });

  test('declared facts are shown as written; figures without traffic are null over an empty window', () => {
    expect(listing().endpoints[2]).toMatchObject({
      name: 'Provider zeta | acme/chat', provider_id: 'prov-7', provider_slug: 'zeta', tag: 'zeta/fp8', max_prompt_tokens: 4096,
      supported_parameters: ['reasoning', 'tool_choice', 'tools'], pricing: { prompt: '0.000001', completion: '0.000002', discount: 0.25 },
      reasoning: { supported_efforts: ['high', 'low', 'none'], mandatory: false }, refuted_reasoning_efforts: [],
      status: 0, health: 'healthy', uptime_last_5m: null, uptime_last_5m_samples: 0, ttft_last_30m: null, throughput_last_30m: null,
      tool_call_success_1d: null, runaway_rate_1d: null, perf_last_30m_by_workload: null,
      supports_tool_choice: true, supports_voice_cloning: false, supports_implicit_caching: true,
      compliance: { zdr: true, zdr_status: 'contractual', hipaa: true }, data_policy: { training: false, retention_days: 0 },
      datacenters: [{ country_code: 'US' }], benchmarks: [{ dataset: 'mmlu', score: 71.5, sample_count: 1000 }],
      capacity: { current: 3, total: 8, updated_at: '2025-06-02T00:00:00Z' },
    });
  });

  test('an endpoint that keeps failing is shown unhealthy with status -1', () => {
    const health = new MemoryEndpointHealth();
    for (let attempt = 0; attempt < 3; attempt += 1) health.record('zeta/acme/chat', false);
    expect(listing(new LiveEndpointState(health)).endpoints[2]).toMatchObject({ status: -1, health: 'degraded' });
  });

  test('check verdicts qualify inputs and refute effort levels as routing does', () => {
    const state = new LiveEndpointState();
    const zeta = listed.live.find((endpoint) => endpoint.id === 'zeta/acme/chat') as EndpointEntry;
    const at = Date.now() - 60_000;
    const observed = (capability: Capability, passed: boolean, revision = servingRevision(zeta)) =>
      state.verdicts.record({ endpointId: zeta.id, capability, passed, at, revision, probeVersion: PROBE_VERSION, detail: 'seen' });
    observed('input:image', false);
    observed('reasoning_effort:low', false);
    observed('reasoning_effort:high', false, 'another-revision');
    observed('reasoning_none', false);
    observed('tools', true);
    expect(listing(state).endpoints[2]).toMatchObject({
      input_modalities: ['text'],
      declared_input_modalities: ['text', 'image'],
      refuted_reasoning_efforts: ['low', 'none'],
      capability_qualification: {
        'input:image': { passed: false, checked_at: new Date(at).toISOString() },
        tools: { passed: true, checked_at: new Date(at).toISOString() },
      },
    });
  });
});

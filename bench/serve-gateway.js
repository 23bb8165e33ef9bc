/**
 * Benchmark service: the gateway as in production (SQLite file in WAL mode, silent logger) with a
 * chat model (and a transcription model) served by the simulator named by BENCH_SIM_URL, and a funded account whose
 * key (spend limits on every scope, out of reach) is announced with the URL. Rate limits are raised so the load is never refused; the limiter
 * itself still runs on every request.
 */
import { limitedAccount, startBenchGateway } from './bench-gateway.js';
import { announce, serveControl } from './service-channel.js';

const BENCH_MODEL = 'bench/chat';

function catalogueYaml(simUrl) {
  return `providers:
  - slug: sim
    name: Simulator
    api: openai
    base_url: ${simUrl}/v1
    data_policy: { training: false, retention_days: 0 }
    compliance: { zdr: true, hipaa: false }
    datacenters: [US]
models:
  - id: ${BENCH_MODEL}
    name: "Bench: Chat"
    created: 2025-06-01
    description: The simulator's chat model, for load benchmarks.
    endpoints:
      - provider: sim
        upstream_model: chat
        context_length: 32768
        max_completion_tokens: 4096
        supported_parameters: [max_tokens, temperature, top_p, stop, seed, tools, tool_choice]
        pricing: { prompt: "0.000001", completion: "0.000002" }
  - id: bench/whisper
    name: "Bench: Whisper"
    created: 2025-11-27
    description: The simulator's transcription model, for the upload memory benchmark.
    endpoints:
      - provider: sim
        upstream_model: whisper-1
        context_length: 448
        input_modalities: [audio]
        output_modalities: [transcription]
        supported_parameters: [timestamp_granularities]
        pricing: { audio_second: "0.0001" }
`;
}

const simUrl = process.env.BENCH_SIM_URL;
if (!simUrl) throw new Error('BENCH_SIM_URL must name the simulator, e.g. http://127.0.0.1:9101');
const { gateway, remove } = await startBenchGateway(catalogueYaml(simUrl), { folderPrefix: 'switchyard-bench-' });
// BENCH_KEY: the key of an account another instance on the same database created (a fleet's load on one account)
const key = process.env.BENCH_KEY ?? (await limitedAccount(gateway.store, 'bench'));
serveControl(remove);
announce({ url: gateway.url, key, model: BENCH_MODEL, pid: process.pid });

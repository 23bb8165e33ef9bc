import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { parseCatalogueText } from '../../src/catalogue/loader.js';
import { formatProblem } from '../../src/catalogue/problem-list.js';
import type { ReadmeExample } from './readme-examples.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const TYPESCRIPT_HOOKS = fileURLToPath(new URL('./typescript-child/register.mjs', import.meta.url));
const SWITCHYARD_COMMAND = fileURLToPath(new URL('./switchyard-command.ts', import.meta.url));
/** The address the examples of the README and docs/ are written for; the runner points it at the test gateway. */
const DOCUMENTED_ORIGIN = 'http://127.0.0.1:8080';
const EXAMPLE_TIMEOUT_MS = 30_000;

/**
 * Before every shell example: stop at the first failing command, make curl fail on an HTTP error
 * status (printing the body), and run `npx switchyard` from the sources (any other npx is refused
 * rather than fetched from a registry).
 */
const SHELL_PRELUDE = `set -eo pipefail
curl() { command curl --fail-with-body --silent --show-error "$@"; }
npx() {
  if [ "$1" = switchyard ]; then shift; node --import '${TYPESCRIPT_HOOKS}' '${SWITCHYARD_COMMAND}' "$@";
  else echo "npx $1: documentation examples may only run switchyard" >&2; return 127; fi
}
`;

/**
 * A folder standing for a reader's checkout running the demo: `data/` holds the demo's database and
 * key, `node_modules` is the repository's, examples run with it as their working directory.
 */
export interface ExampleFolder {
  path: string;
  databaseUrl: string;
  demoKeyFile: string;
}

export async function prepareExampleFolder(path: string): Promise<ExampleFolder> {
  await mkdir(join(path, 'data'), { recursive: true });
  await symlink(join(REPOSITORY, 'node_modules'), join(path, 'node_modules'), 'dir');
  return { path, databaseUrl: `sqlite:${join(path, 'data', 'switchyard.db')}`, demoKeyFile: join(path, 'data', 'demo-key.txt') };
}

/** The demo gateway the examples talk to, as the Quick start tells the reader to set it up. */
export interface ExampleGateway {
  folder: ExampleFolder;
  /** Origin of the gateway under test, replacing the documented `http://127.0.0.1:8080`. */
  origin: string;
  key: string;
}

export interface ExampleOutcome {
  ok: boolean;
  /** What to show when the example failed: its output, or the problems found. */
  report: string;
}

/** Runs or checks one example; `ok` when it ran without error (exit 0, no throw) or checked clean. */
export async function runExample(example: ReadmeExample, gateway: ExampleGateway): Promise<ExampleOutcome> {
  switch (example.kind) {
    case 'shell':
      return runProcess('bash', ['-c', SHELL_PRELUDE + pointAtGateway(example.code, gateway)], gateway);
    case 'module':
      return runModule(example, gateway);
    case 'catalogue':
      return checkCatalogue(example.code, `${example.file}:${example.line}`);
    case 'endpoint':
      return checkCatalogue(endpointCatalogue(example.code), `${example.file}:${example.line}`);
    case 'settings':
      return checkCatalogue(settingsCatalogue(example.code), `${example.file}:${example.line}`);
    case 'json':
      return checkJson(example.code);
    case 'shown':
    case 'skip':
    case 'unknown':
      return { ok: false, report: `a ${example.kind} block is not run` };
  }
}

function pointAtGateway(code: string, gateway: ExampleGateway): string {
  return code.replaceAll(DOCUMENTED_ORIGIN, gateway.origin);
}

async function runModule(example: ReadmeExample, gateway: ExampleGateway): Promise<ExampleOutcome> {
  const file = join(gateway.folder.path, `${example.file.replace(/\.md$/, '').replaceAll('/', '-')}-line-${example.line}.${example.language}`);
  await writeFile(file, pointAtGateway(example.code, gateway));
  return runProcess('node', ['--import', TYPESCRIPT_HOOKS, file], gateway);
}

function runProcess(command: string, args: string[], gateway: ExampleGateway): Promise<ExampleOutcome> {
  const env = { ...process.env, SWITCHYARD_KEY: gateway.key, SWITCHYARD_URL: `${gateway.origin}/api/v1` };
  return new Promise((resolve) => {
    execFile(command, args, { cwd: gateway.folder.path, env, timeout: EXAMPLE_TIMEOUT_MS, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const status = error ? `failed (${error.killed ? `killed after ${EXAMPLE_TIMEOUT_MS} ms` : `exit ${String(error.code)}`})` : 'exit 0';
      resolve({ ok: !error, report: `${status}\n--- stdout\n${stdout}\n--- stderr\n${stderr}` });
    });
  });
}

function checkCatalogue(text: string, origin: string): ExampleOutcome {
  const result = parseCatalogueText(text, origin);
  return result.ok ? { ok: true, report: '' } : { ok: false, report: result.problems.map(formatProblem).join('\n') };
}

/** An endpoint list put under one model, with an OpenAI-wire provider for each slug it names. */
function endpointCatalogue(fragment: string): string {
  return stringify(exampleCatalogue(parse(dedent(fragment))));
}

/** A `settings:` block put into a catalogue of one model served by one endpoint. */
function settingsCatalogue(fragment: string): string {
  const endpoint = { provider: 'example', upstream_model: 'example', context_length: 8192, input_modalities: ['text'], output_modalities: ['text'], supported_parameters: ['max_tokens'], pricing: { prompt: '0.000001', completion: '0.000002' } };
  return stringify({ ...exampleCatalogue([endpoint]), ...(parse(fragment) as object) });
}

function exampleCatalogue(endpoints: unknown): object {
  const listed: unknown[] = Array.isArray(endpoints) ? endpoints : [];
  const slugs = [...new Set(listed.map((endpoint) => String((endpoint as { provider?: unknown }).provider)))];
  const providers = slugs.map((slug) => ({
    slug,
    name: slug,
    api: 'openai',
    base_url: 'http://127.0.0.1:9/v1',
    data_policy: { training: false, retention_days: 0 },
    compliance: { zdr: true, hipaa: false },
    datacenters: ['US'],
  }));
  return { providers, models: [{ id: 'readme/example', name: 'README example', created: '2025-01-01', endpoints }] };
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  return lines.map((line) => line.slice(indent)).join('\n');
}

function checkJson(text: string): ExampleOutcome {
  try {
    JSON.parse(text);
    return { ok: true, report: '' };
  } catch (error) {
    return { ok: false, report: `not JSON: ${(error as Error).message}` };
  }
}

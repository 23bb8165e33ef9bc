/**
 * Every fenced block of README.md and of every Markdown page under docs/ is run or checked here, so
 * the documentation cannot drift from the code; and every relative link between them must lead to a
 * file and heading that exist.
 *
 * How to write an example (test/support/readme-examples.ts has the rules):
 * - `sh`/`bash` blocks run in bash against the embedded demo, from a folder laid out like a
 *   checkout running `npx switchyard serve` (`data/demo-key.txt` is the demo key), with
 *   `SWITCHYARD_KEY` and `SWITCHYARD_URL` set as the Quick start tells the reader to set them.
 *   `http://127.0.0.1:8080` is pointed at the test's gateway; curl fails on an HTTP error status;
 *   `npx switchyard …` runs the command line from the sources, on the demo's database.
 * - `ts`/`js` blocks run as ES modules (TypeScript stripped), with the same environment; import
 *   what they use (`openai`, `@anthropic-ai/sdk`).
 * - `yaml` blocks are whole catalogues and must pass `switchyard catalogue check`; an endpoint list
 *   to paste into a model is marked `<!-- example: endpoint -->` on the line before the fence, and a
 *   `settings:` block shown on its own `<!-- example: settings -->`.
 * - `json` blocks must parse; `jsonc`, `toml` and `text` blocks are shown, not run.
 * - A block that cannot run against the demo (another catalogue, a tool not installed, a server
 *   that keeps running) is marked `<!-- example: skip — why -->` on the line before the fence.
 * - Any other block, or one without a language, fails the first test of its file until it is marked.
 * An example passes when it exits 0 (or throws nothing, or checks clean); examples run one at a
 * time against one gateway, the README first, then the pages in the order of their paths, each page
 * from top to bottom: an example may use what an earlier one of the same page left (a file in
 * `data/`, a key), never what another page left.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import { prepareExampleFolder, runExample, type ExampleGateway } from '../support/readme-example-runner.js';
import { brokenLinks, documentationFiles, headingAnchor, headingAnchors } from '../support/readme-example-links.js';
import { readmeExamples, type ReadmeExample } from '../support/readme-examples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = documentationFiles(ROOT);

/** The parts of docker-compose.fleet.yml the checks below read. */
interface FleetCompose {
  services: Record<string, { environment?: Record<string, string>; networks?: { fleet?: { ipv4_address?: string } } } | undefined>;
}
const RUN_TIMEOUT_MS = 40_000;
const VERDICT: Partial<Record<ReadmeExample['kind'], string>> = {
  shell: 'runs', module: 'runs', catalogue: 'passes the catalogue check', endpoint: 'passes the catalogue check', settings: 'passes the catalogue check', json: 'parses',
};

describe('how the blocks of a Markdown file are read', () => {
  const kinds = (markdown: string) => readmeExamples(markdown).map((example) => [example.language, example.kind, example.note]);

  test('a block runs or is checked by its language, and a language nobody runs is an error until marked', () => {
    const markdown = ['```sh', 'curl x', '```', '```ts', 'x', '```', '```yaml', 'a: 1', '```', '```json', '{}', '```', '```toml', 'a = 1', '```', '```python', 'x', '```', '```', 'x', '```'].join('\n');
    expect(kinds(markdown).map(([language, kind]) => [language, kind])).toEqual([
      ['sh', 'shell'], ['ts', 'module'], ['yaml', 'catalogue'], ['json', 'json'], ['toml', 'shown'], ['python', 'unknown'], ['', 'unknown'],
    ]);
  });

  test('a marker on the line before the fence skips it with its reason, or checks yaml as an endpoint list', () => {
    const markdown = ['<!-- example: skip — needs Docker -->', '```sh', 'docker ps', '```', '', '<!-- example: endpoint -->', '', '```yaml', '- provider: a', '```'].join('\n');
    expect(kinds(markdown)).toEqual([['sh', 'skip', 'needs Docker'], ['yaml', 'endpoint', undefined]]);
  });

  test('a skip without a reason, or an unknown marker, is an error; a marker above other text applies to nothing', () => {
    const markdown = ['<!-- example: skip -->', '```sh', 'x', '```', '<!-- example: later -->', '```sh', 'x', '```', '<!-- example: skip — why -->', 'Some text.', '```sh', 'x', '```'].join('\n');
    expect(kinds(markdown).map(([, kind]) => kind)).toEqual(['unknown', 'unknown', 'shell']);
  });

  test('a block keeps its lines (a shorter fence inside a longer one included), its line number and its heading', () => {
    const markdown = ['# Top', '## Routing', '````sh', 'echo 1', '```', 'echo 2', '````', '```sh', 'echo 3', '```'].join('\n');
    expect(readmeExamples(markdown).map(({ line, heading, code }) => [line, heading, code])).toEqual([
      [3, 'Routing', 'echo 1\n```\necho 2'],
      [8, 'Routing', 'echo 3'],
    ]);
  });
});

let gateway: RunningGateway;
let target: ExampleGateway;

beforeAll(async () => {
  const folder = await prepareExampleFolder(await mkdtemp(join(tmpdir(), 'switchyard-docs-')));
  gateway = await startGateway({
    port: 0,
    databaseUrl: folder.databaseUrl,
    demoKeyFile: folder.demoKeyFile,
    logger: pino({ level: 'silent' }),
    watch: false,
  });
  target = { folder, origin: gateway.url, key: gateway.demoKey?.key ?? '' };
});

afterAll(async () => {
  await gateway?.close();
  if (target) await rm(target.folder.path, { recursive: true, force: true });
});

function title(example: ReadmeExample): string {
  return `${example.file}:${example.line} (${example.heading}) ${example.language}`;
}

describe('links between the README and the pages under docs/', () => {
  test('a heading is linked as GitHub names it: lower case, punctuation and code marks dropped, spaces as hyphens', () => {
    expect(['Messages dialect (`/messages`)', 'Stored files (`/api/v1/files`)', 'Settings (`settings:`)', 'The approval flow (PKCE)']
      .map(headingAnchor)).toEqual(['messages-dialect-messages', 'stored-files-apiv1files', 'settings-settings', 'the-approval-flow-pkce']);
    expect([...headingAnchors(['# Top', '## Notes', '```sh', '# not a heading', '```', '## Notes'].join('\n'))]).toEqual(['top', 'notes', 'notes-1']);
  });

  test('every relative link names a file of the repository and, with a #fragment, a heading of it', () => {
    const broken = FILES.flatMap((file) => brokenLinks(ROOT, file))
      .map((link) => `${link.file}:${link.line} ${link.target}: ${link.problem}`);
    expect(broken).toEqual([]);
  });
});

describe('the fleet docs/operating.md runs with Docker Compose (Docker itself is not needed here)', () => {
  const compose = parse(readFileSync(join(ROOT, 'docker-compose.fleet.yml'), 'utf8')) as FleetCompose;
  const caddyfile = readFileSync(join(ROOT, 'deploy/Caddyfile'), 'utf8');

  test('its catalogue, deploy/catalogue.yaml, passes the catalogue check', async () => {
    const code = readFileSync(join(ROOT, 'deploy/catalogue.yaml'), 'utf8');
    const outcome = await runExample({ file: 'deploy/catalogue.yaml', line: 1, heading: '', language: 'yaml', kind: 'catalogue', code }, target);
    expect(outcome.ok, outcome.report).toBe(true);
  });

  test('Caddy balances over exactly the instances the compose file starts, and they trust its address alone', () => {
    const instances = Object.keys(compose.services).filter((name) => name.startsWith('switchyard-')).sort();
    expect(instances).toEqual(['switchyard-1', 'switchyard-2', 'switchyard-3']);
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/).sort();
    expect(upstreams).toEqual(instances.map((name) => `${name}:8080`));
    const caddyAddress = compose.services.caddy?.networks?.fleet?.ipv4_address;
    expect(caddyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const name of instances) expect(compose.services[name]?.environment?.SWITCHYARD_TRUST_PROXY).toBe(caddyAddress);
  });
});

for (const file of FILES) {
  const examples = readmeExamples(readFileSync(join(ROOT, file), 'utf8'), file);

  describe(`${file} examples`, () => {
    test('every fenced block is run, checked, shown or marked skipped with a reason', () => {
      const unclear = examples.filter((example) => example.kind === 'unknown').map((example) => `${title(example)}: ${example.note}`);
      expect(unclear).toEqual([]);
    });

    for (const example of examples) {
      if (example.kind === 'skip') test.skip(`${title(example)}: ${example.note}`, () => undefined);
      if (example.kind === 'shown' || example.kind === 'skip' || example.kind === 'unknown') continue;
      test(`${title(example)} ${VERDICT[example.kind]}`, async () => {
        const outcome = await runExample(example, target);
        expect(outcome.ok, `${title(example)}\n${example.code}\n${outcome.report}`).toBe(true);
      }, RUN_TIMEOUT_MS);
    }
  });
}

/**
 * Where a V8 `.cpuprofile` (as written by `node --cpu-prof` or the inspector's Profiler) spent
 * its time, idle excluded: self time per function and per module, the inclusive time of the
 * project's own functions (`dist/…`), which shows what each step of a request costs in total, and
 * every sample put in one stage of a request's life (STAGES).
 */

/**
 * The stages of a request, each by the code that is its own; a sample belongs to the first stage
 * one of its frames names, from the leaf up (a `JSON.parse` called by the SSE reader is the stream's,
 * a SQLite step called by the ledger is the ledger's), Node's internals last (a socket write is the
 * upstream call's when undici made it). Checked in this order.
 */
const STREAMS = 'streams (SSE read, translate, write)';

const STAGES = [
  ['ledger and records (SQLite, billing, store)', /^(better-sqlite3|kysely|pg|pg-protocol)\/|^dist\/(billing|store)\//],
  ['upstream call (undici, transport)', /^undici\/|^dist\/upstream\/(transport|response-body)/],
  [STREAMS, /^dist\/upstream\/(sse-frames|block-tracker|[a-z]+\/(stream|delta))|^dist\/dialects\/[a-z]+\/encode-stream|^dist\/inference\/(answer-stream|stream-checkpoint|upstream-events|stream-output)|^dist\/http\/inference\/(write-stream|sse-socket)|^dist\/core\/answer-meter/],
  ['prompt estimate (tokenizer)', /^gpt-tokenizer\/|^dist\/core\/(text-tokens|token-estimate|request-facts)/],
  ['logging (pino)', /^pino|^dist\/http\/request-(log|trace)/],
  ['metrics (prom-client, figures)', /^prom-client\/|^@datadog\/|^dist\/runtime\/metrics|^dist\/stats\//],
  ['key, limits and account', /^dist\/(accounts|ratelimit)\//],
  ['planning', /^dist\/core\/planner\//],
  ['dialects and adapters (whole replies)', /^dist\/(dialects|upstream)\//],
  ['HTTP (Fastify, node:http)', /^(fastify|@fastify\/|find-my-way|avvio|fast-json-stringify|light-my-request|ajv)|^node:(http|_http|net|stream|internal\/(http|stream|net))|^dist\/http\//],
  ['the call (inference)', /^dist\/inference\//],
];

/** node:http's own uncork at the end of a tick that wrote a response in parts: a stream's frames leaving (whole replies leave in `end`). */
const STREAM_WRITES = 'connectionCorkNT';

function stageOf(node, parents) {
  if (node.callFrame.functionName === '(garbage collector)') return 'garbage collection';
  const frames = [];
  for (let current = node; current; current = parents.get(current.id)) {
    if (current.callFrame.functionName === STREAM_WRITES) return STREAMS;
    frames.push(location(current.callFrame));
  }
  // Node's own internals (sockets, streams) belong to the package or project code that called them
  const ordered = [...frames.filter((where) => !where.startsWith('node:')), ...frames.filter((where) => where.startsWith('node:'))];
  for (const where of ordered) {
    for (const [name, pattern] of STAGES) if (pattern.test(where)) return name;
  }
  return 'other (runtime, timers, unattributed)';
}

function location(callFrame) {
  const url = callFrame.url.replace(/^file:\/\//, '');
  const inPackage = url.lastIndexOf('/node_modules/');
  const inProject = url.lastIndexOf('/dist/');
  if (inPackage >= 0) return url.slice(inPackage + '/node_modules/'.length);
  if (inProject >= 0) return url.slice(inProject + 1);
  return url;
}

/** The package (`undici`), project folder (`dist/http`), `node:` internals or native code. */
function moduleOf(callFrame) {
  const where = location(callFrame);
  if (where === '') return callFrame.functionName.startsWith('(') ? callFrame.functionName : '(native code: addons, syscalls)';
  if (where.startsWith('node:')) return 'node: internals';
  if (where.startsWith('dist/')) return where.split('/').slice(0, 2).join('/');
  const parts = where.split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? where);
}

function functionOf(callFrame) {
  const where = location(callFrame);
  const name = callFrame.functionName || '(anonymous)';
  if (where === '') return name.startsWith('(') ? name : `${name} (native)`;
  return `${name} ${where}:${callFrame.lineNumber + 1}`;
}

function ranked(totals, total, top) {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, ms: micros / 1000, percent: (100 * micros) / total }));
}

function add(totals, name, micros) {
  totals.set(name, (totals.get(name) ?? 0) + micros);
}

/** Adds `micros` once to every project function on the stack of `node`. */
function addInclusive(totals, node, parents, micros) {
  const seen = new Set();
  for (let current = node; current; current = parents.get(current.id)) {
    if (!location(current.callFrame).startsWith('dist/')) continue;
    const name = functionOf(current.callFrame);
    if (seen.has(name)) continue;
    seen.add(name);
    add(totals, name, micros);
  }
}

/**
 * @param {{ nodes: Array<{ id: number, callFrame: object, children?: number[] }>, samples: number[], timeDeltas: number[] }} profile
 * @param {number} top how many entries each list keeps
 */
export function summarizeProfile(profile, top = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const self = new Map();
  const modules = new Map();
  const inclusive = new Map();
  const stages = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index + 1] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    total += micros;
    add(self, functionOf(node.callFrame), micros);
    add(modules, moduleOf(node.callFrame), micros);
    addInclusive(inclusive, node, parents, micros);
    add(stages, stageOf(node, parents), micros);
  });
  return {
    busyMs: total / 1000,
    functions: ranked(self, total, top),
    modules: ranked(modules, total, top),
    project: ranked(inclusive, total, top),
    stages: ranked(stages, total, STAGES.length + 2),
  };
}

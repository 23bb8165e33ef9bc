/**
 * Where a V8 `.cpuprofile` (as written by `node --cpu-prof` or the inspector's Profiler) spent
 * its time, idle excluded: self time per function and per module, and the inclusive time of the
 * project's own functions (`dist/…`), which shows what each step of a request costs in total.
 */

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
  let total = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index + 1] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    total += micros;
    add(self, functionOf(node.callFrame), micros);
    add(modules, moduleOf(node.callFrame), micros);
    addInclusive(inclusive, node, parents, micros);
  });
  return {
    busyMs: total / 1000,
    functions: ranked(self, total, top),
    modules: ranked(modules, total, top),
    project: ranked(inclusive, total, top),
  };
}

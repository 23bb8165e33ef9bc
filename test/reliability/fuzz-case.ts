import { mutateOnce, serialize, type Json } from './json-mutations.js';
import type { RouteSeed } from './route-corpus.js';
import type { SeededRandom } from './seeded-random.js';
import { badAuthorization, CONTENT_TYPES, goodAuthorization, headerValue, mutateRaw } from './wire-mutations.js';

/** One fuzzed request, and what it claims to be, so its reply can be judged. */
export interface FuzzCase {
  index: number;
  route: RouteSeed;
  method: string;
  /** Path under the API root, query included. */
  path: string;
  /** Sent to the route's own method and path (a query aside): judged by that route's rules. */
  onRoute: boolean;
  headers: Record<string, string>;
  payload?: string | Uint8Array;
  /** The account's own key was presented. */
  authenticated: boolean;
  /** What was done to the seed request, in order. */
  labels: string[];
}

const ATTRIBUTION_HEADERS = ['x-title', 'x-partner-title', 'http-referer', 'x-session-id', 'accept', 'user-agent', 'content-encoding', 'accept-encoding'];

const GENERATION_QUERIES = ['', '?id=', '?id=gen-doesnotexist', '?id=%zz', '?id=a&id=b', '?id[]=1', `?id=${encodeURIComponent('\u0000\ud7ff😀')}`, `?id=${'g'.repeat(5_000)}`, '?id=%00'];

/** Filters, sorts and pages of the model list, valid and not (spec 02 "Catalogue reads"). */
const MODEL_QUERIES = [
  '', '?q=chat&sort=price-low-to-high&limit=1&offset=0', '?input_modalities=text,,image', '?max_price=1e-3', '?min_price=-1',
  '?max_price=0.0000000000000000000000001', '?limit=0', '?limit=abc', '?offset=-1', '?sort=cheapest', '?zdr=maybe',
  '?limit=1&limit=2', '?q[]=1', '?q=%zz', `?q=${'m'.repeat(5_000)}`, '?supported_parameters=tools,,', '?unknown=1', '?distillable=true',
  // names every object inherits
  '?__proto__=1', '?constructor=1', '?hasOwnProperty=1', '?sort=constructor', '?sort=__proto__', '?region=constructor', '?region=toString',
];

function pathMutation(route: RouteSeed, random: SeededRandom): { path: string; onRoute: boolean; label: string } {
  const { path } = route;
  const choice = random.pick([
    { path: `${path}/`, onRoute: false },
    { path: path.toUpperCase(), onRoute: false },
    { path: `/${path}`, onRoute: false },
    { path: `${path}%00`, onRoute: false },
    { path: `${path}/..%2fkey`, onRoute: false },
    { path: `${path}?x=%zz&y=1&y=2`, onRoute: true },
    { path: `${path}?${'q'.repeat(random.int(100, 6_000))}=1`, onRoute: true },
    { path: `${path}?stream=true&model=acme%2Fnone`, onRoute: true },
    { path: `${path}${'x'.repeat(random.int(90, 400))}`, onRoute: false },
  ]);
  return { ...choice, label: `path ${choice.path.slice(0, 80)}` };
}

function otherMethod(route: RouteSeed, random: SeededRandom): string {
  return route.method === 'GET' ? random.pick(['POST', 'PUT', 'DELETE']) : random.pick(['GET', 'PUT', 'DELETE', 'PATCH']);
}

/** The request body: the seed's, mutated in its tree, in its bytes, or both. */
function fuzzedPayload(route: RouteSeed, random: SeededRandom, labels: string[]): string | Uint8Array {
  let body = route.body as Json;
  const treeMutations = random.chance(0.8) ? random.int(1, 3) : 0;
  for (let i = 0; i < treeMutations; i += 1) {
    const mutated = mutateOnce(body, random);
    body = mutated.body;
    labels.push(mutated.label);
  }
  const text = serialize(body);
  if (treeMutations > 0 && !random.chance(0.2)) return text;
  const raw = mutateRaw(text, random);
  labels.push(raw.label);
  return raw.payload;
}

const FORM_BOUNDARY = 'fuzz-boundary';

/** A speech form: the body's members as fields (some mangled), maybe a `file` part of junk bytes, maybe cut short. */
function multipartForm(body: Record<string, unknown>, random: SeededRandom): { payload: Uint8Array; label: string } {
  const parts: Buffer[] = [];
  const notes: string[] = [];
  const field = (name: string, value: string | Buffer, filename?: string): void => {
    const disposition = `form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}`;
    parts.push(Buffer.from(`--${FORM_BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  };
  for (const [name, value] of Object.entries(body)) {
    if (random.chance(0.1)) continue;
    const text = random.chance(0.15) ? random.pick(['', 'NaN', '-1', '1e999', '{', '\u0000', 'x'.repeat(20_000)]) : String(value);
    if (text !== String(value)) notes.push(`${name}=${JSON.stringify(text.slice(0, 10))}`);
    field(name, text);
  }
  if (random.chance(0.5)) {
    const bytes = Buffer.from(Array.from({ length: random.int(0, 2_000) }, () => random.int(0, 255)));
    const head = random.pick(['', 'RIFF', 'ID3', 'fLaC', 'OggS']);
    field('file', Buffer.concat([Buffer.from(head), bytes]), random.pick(['a.wav', '', '../x', 'ü.mp3']));
    notes.push(`file ${head || 'junk'} ${bytes.length} bytes`);
    if (random.chance(0.3)) field('transcript', 'hello');
  }
  if (random.chance(0.3)) field('provider', random.pick(['{', '[]', '{"only":["sim-a"]}', 'null']));
  parts.push(Buffer.from(`--${FORM_BOUNDARY}--\r\n`));
  let payload = Buffer.concat(parts);
  if (random.chance(0.2)) {
    payload = payload.subarray(0, random.int(0, payload.length - 1));
    notes.push('cut short');
  }
  return { payload, label: `multipart form ${notes.join(', ')}` };
}

/** Builds case `index` for `route` from `random`; the same generator state gives the same case. */
export function buildCase(index: number, route: RouteSeed, random: SeededRandom, validKey: string): FuzzCase {
  const labels: string[] = [];
  const headers: Record<string, string> = {};
  let authenticated = true;
  const keyDraw = random.next();
  if (keyDraw < 0.07) {
    Object.assign(headers, badAuthorization(random, validKey));
    authenticated = false;
    labels.push(`key ${JSON.stringify(headers).slice(0, 100)}`);
  } else if (keyDraw < 0.12) {
    Object.assign(headers, goodAuthorization(random, validKey));
    labels.push(`key presented as ${Object.keys(headers)[0] ?? ''}`);
  } else {
    headers.authorization = `Bearer ${validKey}`;
  }
  let method: string = route.method;
  let path = route.path;
  let onRoute = true;
  if (random.chance(0.04)) {
    method = otherMethod(route, random);
    onRoute = false;
    labels.push(`method ${method}`);
  }
  if (random.chance(0.04)) {
    const mutated = pathMutation(route, random);
    path = mutated.path;
    onRoute &&= mutated.onRoute;
    labels.push(mutated.label);
  }
  if (route.path === '/generation') path += random.pick(GENERATION_QUERIES);
  if (route.path === '/models') path += random.pick(MODEL_QUERIES);
  let payload: string | Uint8Array | undefined;
  if (route.path === '/audio/speech' && random.chance(0.15)) {
    const form = multipartForm(route.body ?? {}, random);
    payload = form.payload;
    headers['content-type'] = `multipart/form-data; boundary=${FORM_BOUNDARY}`;
    labels.push(form.label);
  } else if (route.body !== undefined) {
    payload = fuzzedPayload(route, random, labels);
    headers['content-type'] = 'application/json';
  }
  if (random.chance(0.08)) {
    const type = random.pick(CONTENT_TYPES);
    if (type === undefined) delete headers['content-type'];
    else headers['content-type'] = type;
    labels.push(`content-type ${JSON.stringify(type)}`);
  }
  if (random.chance(0.08)) {
    const name = random.pick(ATTRIBUTION_HEADERS);
    headers[name] = headerValue(random);
    labels.push(`header ${name}: ${headers[name]?.slice(0, 40) ?? ''}`);
  }
  const carriesBody = method !== 'GET' && payload !== undefined;
  return { index, route, method, path, onRoute, headers, ...(carriesBody && { payload }), authenticated, labels };
}

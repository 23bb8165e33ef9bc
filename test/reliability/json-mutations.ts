import type { SeededRandom } from './seeded-random.js';

/**
 * Structure-aware mutations of a valid JSON body: each picks a place in the tree and changes what is
 * there the way careless or hostile clients do. A mutation works on a deep copy and names itself, so
 * a failing case says what was sent.
 */

export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };
type PathStep = string | number;

export interface Mutated {
  body: Json;
  label: string;
}

/** A JSON text the serializer cannot produce (`1e999`), put in place of the string `@@raw:TEXT@@`. */
export function rawToken(text: string): string {
  return `@@raw:${text}@@`;
}

/** Turns the placeholders of `rawToken` into the raw text they stand for. */
export function serialize(body: Json): string {
  return JSON.stringify(body).replace(/"@@raw:([^@"]*)@@"/g, '$1');
}

const WRONG_TYPES: Json[] = [null, true, false, 0, -1, 1.5, '', 'x', [], {}, [null], { '': null }, 'null', 'true', '[]', '{}'];

const NUMBERS: Json[] = [
  1e308, -1e308, 2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 31, 2 ** 32, -2_147_483_649, 0.1 + 0.2, 5e-324, -0, 1_048_577, 0,
  rawToken('1e999'), rawToken('-1e999'), rawToken('123456789012345678901234567890'), rawToken('1.0e+400'), rawToken('-0.0'), rawToken('1E2'),
];

const NUMBER_LIKE_STRINGS: Json[] = ['NaN', '-NaN', 'Infinity', '-Infinity', '-1', '1e999', '0x1F', ' 1', '1 ', '1,5', '٣', '１', '-0', '+1', '1_000'];

/** Characters that break naive text handling: NUL, lone surrogates, BOM, direction overrides, separators. */
const AWKWARD_TEXT = [
  '\u0000', '\ud800', '\udfff', 'a\ud83d', '\ufeff', '\u202e', '\u2028', '\u2029', '\uffff', '\ufffe', 'e\u0301\u0301\u0301',
  '😀👩‍👩‍👧‍👦', '\u0085', '\u001b[2J', '\r\n', '"', '\\', '</script>', '[[', ']]', '%00', '\u00ff\u00fe',
];

function awkwardString(random: SeededRandom): string {
  let text = '';
  const parts = random.int(1, 6);
  for (let i = 0; i < parts; i += 1) text += random.chance(0.5) ? random.pick(AWKWARD_TEXT) : random.pick(['hello', 'model', ' ', 'x', 'ü', '中文']);
  return text;
}

/**
 * Text split into words by spaces, which a tokenizer handles piece by piece, and unbroken runs of
 * one character, which it reads as one pre-token. The runs stay short while prompt estimation is
 * quadratic in the length of a pre-token (the known token-estimation defect; see known-defects.ts):
 * a 100,000-character run holds the process for over 30 s.
 */
const UNBROKEN_RUN_LIMIT = 2_500;

/** The most characters the copies of one array mutation add up to. */
const ARRAY_COPIES_LIMIT_CHARS = 512_000;

function longString(random: SeededRandom): string {
  const spaced = random.chance(0.5);
  const unit = spaced ? random.pick(['word ', 'ü ', '中 ', '😀 ', '\u0000 ', 'x\ud800 ', '{"a":[ ']) : random.pick(['a', 'ü', '中', '😀', '\u0000', 'x\ud800']);
  const length = !spaced ? random.int(1_000, UNBROKEN_RUN_LIMIT) : random.chance(0.9) ? random.int(1_000, 20_000) : random.int(100_000, 300_000);
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Nested arrays or objects `levels` deep around `inner`. */
function nested(levels: number, inner: Json, asObjects: boolean): Json {
  let value = inner;
  for (let i = 0; i < levels; i += 1) value = asObjects ? { a: value } : [value];
  return value;
}

function copy(body: Json): Json {
  return JSON.parse(JSON.stringify(body)) as Json;
}

/** Every place in the tree (the root is `[]`), at most `limit` of them, parents before children. */
function pathsOf(body: Json, limit = 400): PathStep[][] {
  const paths: PathStep[][] = [];
  const pending: Array<{ value: Json; path: PathStep[] }> = [{ value: body, path: [] }];
  while (pending.length > 0 && paths.length < limit) {
    const { value, path } = pending.shift() as { value: Json; path: PathStep[] };
    paths.push(path);
    if (Array.isArray(value)) value.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) pending.push({ value: item, path: [...path, key] });
  }
  return paths;
}

function at(body: Json, path: PathStep[]): Json {
  let value: Json = body;
  for (const step of path) value = (value as Record<string | number, Json>)[step] as Json;
  return value;
}

/** Sets (or, with `undefined`, deletes) the value at `path`; returns the new root. */
function put(body: Json, path: PathStep[], value: Json | undefined): Json {
  if (path.length === 0) return value ?? null;
  const parent = at(body, path.slice(0, -1)) as Record<string | number, Json> | Json[];
  const last = path[path.length - 1] as PathStep;
  if (value !== undefined) (parent as Record<string | number, Json>)[last] = value;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, Json>)[last];
  return body;
}

function pathText(path: PathStep[]): string {
  return path.length === 0 ? '(root)' : path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('');
}

type Mutation = (body: Json, path: PathStep[], random: SeededRandom) => Mutated;

const MUTATIONS: Record<string, Mutation> = {
  wrongType: (body, path, random) => {
    const value = random.pick(WRONG_TYPES);
    return { body: put(body, path, copy(value)), label: `${pathText(path)} = ${JSON.stringify(value)}` };
  },
  number: (body, path, random) => {
    const value = random.pick(NUMBERS);
    return { body: put(body, path, value), label: `${pathText(path)} = ${String(value)}` };
  },
  numberLikeString: (body, path, random) => {
    const value = random.pick(NUMBER_LIKE_STRINGS);
    return { body: put(body, path, value), label: `${pathText(path)} = ${JSON.stringify(value)}` };
  },
  missing: (body, path) => ({ body: put(body, path, undefined), label: `${pathText(path)} removed` }),
  unknownMember: (body, path, random) => {
    const target = at(body, path);
    const name = random.pick(['x', 'extra', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', ' ', '\u0000', 'model ', 'Stream', '$ref', 'then']);
    const value = copy(random.pick(WRONG_TYPES));
    if (target === null || typeof target !== 'object' || Array.isArray(target)) {
      return { body: put(body, path, { [name]: value }), label: `${pathText(path)} = {${JSON.stringify(name)}: …}` };
    }
    target[name] = value;
    return { body, label: `${pathText(path)}[${JSON.stringify(name)}] added` };
  },
  deepNesting: (body, path, random) => {
    const levels = random.int(124, 131) - path.length;
    const asObjects = random.chance(0.5);
    return { body: put(body, path, nested(Math.max(levels, 1), random.pick([null, 'x', 1, {}]), asObjects)), label: `${pathText(path)} nested to ${levels + path.length + 1} levels (${asObjects ? 'objects' : 'arrays'})` };
  },
  longString: (body, path, random) => {
    const value = longString(random);
    return { body: put(body, path, value), label: `${pathText(path)} = ${value.length} characters of ${JSON.stringify(value.slice(0, 6))}…` };
  },
  awkwardText: (body, path, random) => {
    const value = awkwardString(random);
    return { body: put(body, path, value), label: `${pathText(path)} = ${JSON.stringify(value)}` };
  },
  array: (body, path, random) => {
    const target = at(body, path);
    const item = Array.isArray(target) && target.length > 0 ? target[0] as Json : target;
    // Copies stay within half a megabyte: the 8 MB limit has its own cases (wire-mutations.ts), and
    // many copies of an unbroken run would each be estimated at the known quadratic cost.
    const count = Math.min(random.pick([0, 1, 9, 21, 33, 257, 2_049]), Math.floor(ARRAY_COPIES_LIMIT_CHARS / (JSON.stringify(item)?.length ?? 1)));
    const value = Array.from({ length: count }, (_, index) => (random.chance(0.8) ? copy(item) : index));
    return { body: put(body, path, value), label: `${pathText(path)} = ${count} copies` };
  },
  swap: (body, path, random) => {
    const paths = pathsOf(body);
    const donor = random.pick(paths);
    const value = copy(at(body, donor));
    return { body: put(body, path, value), label: `${pathText(path)} = the value of ${pathText(donor)}` };
  },
};

const MUTATION_NAMES = Object.keys(MUTATIONS);

/** One mutation at a random place, its kind chosen at random. */
export function mutateOnce(body: Json, random: SeededRandom): Mutated {
  const copied = copy(body);
  const paths = pathsOf(copied);
  // The root is picked rarely: most value of a mutation comes from a valid body around it.
  const path = random.chance(0.04) ? [] : random.pick(paths.length > 1 ? paths.slice(1) : paths);
  const name = random.pick(MUTATION_NAMES);
  const mutation = MUTATIONS[name] as Mutation;
  const mutated = mutation(copied, path, random);
  return { body: mutated.body, label: `${name} ${mutated.label}` };
}

import type { SeededRandom } from './seeded-random.js';

/**
 * Mutations below the JSON tree: the bytes of the body, the content type and other headers, the key,
 * the method and the path.
 */

export interface RawMutated {
  payload: string | Uint8Array;
  label: string;
}

const TRAILERS = [' x', '{}', '\u0000', ',', ']', '}', '\n{"model":1}', 'null'];
const INVALID_UTF8: number[][] = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x80, 0x80]];

/** A top-level member name of the serialized object, for a duplicate. */
function topLevelKey(text: string, random: SeededRandom): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const keys = Object.keys(parsed);
      if (keys.length > 0) return random.pick(keys);
    }
  } catch {
    // not JSON: any name will do
  }
  return 'model';
}

function insertAfterBrace(text: string, member: string): string {
  const brace = text.indexOf('{');
  return brace < 0 ? text : `${text.slice(0, brace + 1)}${member}${text[brace + 1] === '}' ? '' : ','}${text.slice(brace + 1)}`;
}

function insertBeforeLastBrace(text: string, member: string): string {
  const brace = text.lastIndexOf('}');
  return brace < 0 ? text : `${text.slice(0, brace)}${text[brace - 1] === '{' ? '' : ','}${member}${text.slice(brace)}`;
}

const RAW_MUTATIONS: Record<string, (text: string, random: SeededRandom) => RawMutated> = {
  truncated: (text, random) => {
    const cut = random.int(0, Math.max(text.length - 1, 0));
    return { payload: text.slice(0, cut), label: `cut after ${cut} of ${text.length} characters` };
  },
  duplicateKey: (text, random) => {
    const key = topLevelKey(text, random);
    const value = random.pick(['null', '1', '"x"', '[]', '{}', 'true', '"acme/none"', '{"a":{"b":[1,2]}}']);
    const first = random.chance(0.5);
    const member = `${JSON.stringify(key)}:${value}`;
    return { payload: first ? insertAfterBrace(text, member) : insertBeforeLastBrace(text, member), label: `duplicate ${key}=${value} ${first ? 'first' : 'last'}` };
  },
  prototypeKey: (text, random) => {
    const member = random.pick(['"__proto__":{"polluted":true}', '"constructor":{"prototype":{"polluted":true}}', '"__proto__":null', '"__proto__":[]']);
    return { payload: insertAfterBrace(text, member), label: `member ${member}` };
  },
  byteOrderMark: (text) => ({ payload: `\ufeff${text}`, label: 'leading byte order mark' }),
  trailingGarbage: (text, random) => {
    const trailer = random.pick(TRAILERS);
    return { payload: `${text}${trailer}`, label: `trailing ${JSON.stringify(trailer)}` };
  },
  invalidUtf8: (text, random) => {
    const bytes = Buffer.from(text, 'utf8');
    const quote = bytes.indexOf(0x22, random.int(0, Math.max(bytes.length - 1, 0)));
    const at = quote < 0 ? bytes.length : quote + 1;
    const bad = random.pick(INVALID_UTF8);
    return { payload: Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]), label: `bytes ${bad.map((b) => b.toString(16)).join(' ')} at ${at}` };
  },
  escapes: (text, random) => {
    const escape = random.pick(['\\u0000', '\\ud800', '\\udc00\\ud800', '\\uDBFF', '\\u001f', '\\/', '\\uZZZZ', '\\x41', '\\']);
    const quote = text.indexOf('"', random.int(0, Math.max(text.length - 1, 0)));
    const at = quote < 0 ? text.length : quote + 1;
    return { payload: `${text.slice(0, at)}${escape}${text.slice(at)}`, label: `escape ${escape} at ${at}` };
  },
  whitespace: (text, random) => {
    const pad = random.pick([' ', '\t', '\n', '\r\n', '\u00a0', '\u2028']).repeat(random.int(1, 50_000));
    return { payload: random.chance(0.5) ? `${pad}${text}` : `${text}${pad}`, label: `${pad.length} characters of padding` };
  },
  notJson: (_text, random) => {
    const payload = random.pick(['', ' ', 'model=acme/chat&stream=true', "{'model':'acme/chat'}", '{model:"acme/chat"}', '{/*c*/}', 'NaN', '[', '"', '\u0000', '{"a":1}{"b":2}', 'nul', '1e999']);
    return { payload, label: `body ${JSON.stringify(payload)}` };
  },
};

const RAW_NAMES = Object.keys(RAW_MUTATIONS);

/** One byte past the 8 MB request body limit (spec 01 Limits). */
const OVERSIZED_BYTES = 8 * 1024 * 1024 + 1;

export function mutateRaw(text: string, random: SeededRandom): RawMutated {
  // Rare, as each sends megabytes: valid JSON padded past the body limit, refused with 413.
  if (random.chance(0.03)) return { payload: `${text}${' '.repeat(Math.max(OVERSIZED_BYTES - Buffer.byteLength(text), 1))}`, label: 'padded past the 8 MB body limit' };
  const name = random.pick(RAW_NAMES);
  const mutated = (RAW_MUTATIONS[name] as (text: string, random: SeededRandom) => RawMutated)(text, random);
  return { payload: mutated.payload, label: `${name} ${mutated.label}` };
}

export const CONTENT_TYPES = [
  undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'multipart/form-data',
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/json-patch+json',
  'application/vnd.api+json', '*/*', '', 'application/json; boundary=x', 'application/octet-stream', 'application/jsonx',
  'application/json;;;', 'text/json', 'application/x-ndjson',
];

/** Values for the attribution and session headers: long, Latin-1, or empty (only bytes a header can carry). */
export function headerValue(random: SeededRandom): string {
  return random.pick([
    '', ' ', 'x'.repeat(257), 'y'.repeat(random.int(300, 4_000)), 'Ünïcödé àpp', '\u00ff\u00fe\u00fd', 'not a url', 'https://', 'javascript:alert(1)',
    '%00%ff', '../../etc/passwd', 'a\tb', 'https://example.invalid/?' + 'q'.repeat(1_000),
  ]);
}

/** A presented key other than the account's own: malformed, unknown, of another scheme. */
export function badAuthorization(random: SeededRandom, validKey: string): Record<string, string> {
  const hex = Array.from({ length: 64 }, () => random.int(0, 15).toString(16)).join('');
  return random.pick<Record<string, string>>([
    {},
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' },
    { authorization: `Bearer sk-svc-v1-${hex}` },
    { authorization: `Bearer sk-legacy-v1-${hex}` },
    { authorization: `Basic ${Buffer.from(`user:${validKey}`).toString('base64')}` },
    { authorization: `Bearer ${validKey} ${validKey}` },
    { authorization: `Bearer ${validKey.slice(0, -1)}` },
    { authorization: `Bearer ${validKey}x` },
    { authorization: `Bearer ${validKey.toUpperCase()}` },
    { authorization: `Bearer ${'k'.repeat(4_000)}` },
    { 'x-api-key': `sk-svc-v1-${hex}` },
    { 'x-api-key': '' },
    { authorization: 'Bearer nope', 'x-api-key': validKey },
  ]);
}

/** Another way to present the account's own key, which must authenticate like the plain one. */
export function goodAuthorization(random: SeededRandom, validKey: string): Record<string, string> {
  return random.pick<Record<string, string>>([
    { authorization: `Bearer ${validKey}` },
    { authorization: `bearer ${validKey}` },
    { authorization: `Bearer   ${validKey}  ` },
    { 'x-api-key': validKey },
  ]);
}

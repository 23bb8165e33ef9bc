/**
 * The bodies of `estimate-stall.js`: the worst texts for a BPE tokenizer we could build, each
 * wrapped as a chat request and as a `/messages/count_tokens` request. Sizes are of the text in
 * UTF-8; the largest stays below the 8 MiB body limit.
 */

const KIB = 1024;
const MIB = 1024 * KIB;
/** Room for the JSON around the text, inside the 8 MiB body limit. */
const LARGEST = 8 * MIB - 4 * KIB;

function seeded(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) / 0x1000000;
  };
}

function randomText(length, first, span, seed) {
  const next = seeded(seed);
  const codes = new Uint16Array(length);
  for (let index = 0; index < length; index += 1) codes[index] = first + Math.floor(next() * span);
  return Buffer.from(codes.buffer).toString('utf16le');
}

/** Words of `letters` random lowercase letters (each word different), separated by spaces, `bytes` long. */
function longWords(bytes, letters, seed) {
  const count = Math.ceil(bytes / (letters + 1));
  const words = Array.from({ length: count }, (_, index) => randomText(letters, 0x61, 26, seed * count + index + 1));
  return words.join(' ').slice(0, bytes);
}

const WORDS = (
  'the of and to in is was that for on are with as his they be at one have this from or had by hot word but what some we can '
  + 'out other were all there when up use your how said an each she which do their time if will way about many then them write '
  + 'would like so these her long make thing see him two has look more day could go come did number sound no most people my '
  + 'over know water than call first who may down side been now find any new work part take get place made live where after'
).split(' ');

/** English-looking prose, `bytes` long: the control, a body of the same size that defeats nothing. */
function prose(bytes, seed) {
  const next = seeded(seed);
  const words = [];
  for (let length = 0; length < bytes; ) {
    const word = `${WORDS[Math.floor(next() * WORDS.length)]}${next() < 0.08 ? '.' : ''}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, bytes);
}

/**
 * Numbered as printed. Texts of at most 200,000 characters were tokenized whole before the estimate
 * was bounded (longer ones were estimated at a third of a token per character), so cases 1, 4 and
 * 12 are the ones that froze that gateway. The tokenizer caches what it merged, so a text sent
 * again costs nothing: each route gets its own variant of a body (another character, another
 * seed), and the texts of one body differ.
 * @type {{ name: string, messages: (variant: number) => Array<{ role: string, content: string }> }[]}
 */
export const STALL_CASES = [
  { name: 'one character, 195,000 (a 200 KB body)', messages: (v) => [user(letter(v).repeat(195_000))] },
  { name: 'one character, 1 MB', messages: (v) => [user(letter(v).repeat(MIB))] },
  { name: 'one character, 8 MB', messages: (v) => [user(letter(v).repeat(LARGEST))] },
  { name: 'words of 1,000 letters, 195 KB', messages: (v) => [user(longWords(195_000, 1000, v))] },
  { name: 'random symbols without spaces, 1 MB', messages: (v) => [user(randomText(MIB, 0x21, 94, 7 + v))] },
  { name: 'one emoji repeated, 1 MB', messages: (v) => [user(String.fromCodePoint(0x1f600 + v).repeat(MIB / 4))] },
  { name: 'random CJK ideographs, 1 MB', messages: (v) => [user(randomText(Math.floor(MIB / 3), 0x4e00, 20_000, 5 + v))] },
  { name: 'random CJK ideographs, 8 MB', messages: (v) => [user(randomText(Math.floor(LARGEST / 3), 0x4e00, 20_000, 3 + v))] },
  { name: '200,000 one-word messages', messages: (v) => Array.from({ length: 200_000 }, (_, index) => user(WORDS[(index + v) % WORDS.length])) },
  { name: 'control: English prose, 1 MB', messages: (v) => [user(prose(MIB, 1 + v))] },
  { name: 'control: English prose, 8 MB', messages: (v) => [user(prose(LARGEST, 3 + v))] },
  {
    name: '8 runs of one character (each another), 199,000 each',
    messages: (v) => Array.from({ length: 8 }, (_, index) => user(letter(v * 8 + index + 1).repeat(199_000))),
  },
];

/** The `index`-th lowercase letter, then uppercase. */
function letter(index) {
  return String.fromCharCode(index < 26 ? 0x61 + index : 0x41 + ((index - 26) % 26));
}

function user(content) {
  return { role: 'user', content };
}

/** The two requests of a case: a chat completion (estimated for its hold) and a token count. */
export const STALL_ROUTES = [
  { route: '/chat/completions', body: (model, messages) => JSON.stringify({ model, messages, max_tokens: 16 }) },
  { route: '/messages/count_tokens', body: (model, messages) => JSON.stringify({ model, messages }) },
];

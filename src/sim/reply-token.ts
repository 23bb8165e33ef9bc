import { cycledWord } from './word-cycle.js';

const WORDS = [
  'Hello', ' from', ' the', ' provider', ' simulator', ',', ' one', ' deterministic',
  ' token', ' at', ' a', ' time', '.',
] as const;

/** Token i of the reply text: the word list, cycled, with a space before each new round. */
export function replyToken(i: number): string {
  return cycledWord(WORDS, i);
}

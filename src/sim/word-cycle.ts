/** Word i of a list, cycled, with a space before each new round. */
export function cycledWord(words: readonly string[], i: number): string {
  const position = i % words.length;
  const word = words[position] ?? '';
  return i > 0 && position === 0 ? ` ${word}` : word;
}

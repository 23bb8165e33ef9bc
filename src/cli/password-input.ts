import type { Readable } from 'node:stream';

/**
 * The password given on standard input: one line, its line ending dropped. From a pipe or a file
 * the whole input is read and more than one line is refused (a password cannot hold a line break);
 * from a terminal reading stops at the first line. Nothing of the input appears in a message.
 */
export async function readPasswordLine(input: Readable & { isTTY?: boolean }): Promise<string> {
  const chunks: string[] = [];
  input.setEncoding('utf8');
  for await (const chunk of input) {
    chunks.push(String(chunk));
    if (input.isTTY && String(chunk).includes('\n')) break;
  }
  const text = chunks.join('');
  if (input.isTTY) return (text.split('\n')[0] ?? '').replace(/\r$/, '');
  const line = text.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(line)) throw new Error('--password-stdin: standard input must hold the password on one line');
  return line;
}

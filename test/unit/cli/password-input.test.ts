import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readPasswordLine } from '../../../src/cli/password-input.js';

function input(chunks: string[], isTTY = false): Readable & { isTTY?: boolean } {
  return Object.assign(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), { isTTY });
}

describe('the password read by --password-stdin', () => {
  it('is the one line given, its line ending (LF or CRLF) dropped, spaces kept', async () => {
    expect(await readPasswordLine(input(['plum orchard 1847 \n']))).toBe('plum orchard 1847 ');
    expect(await readPasswordLine(input(['plum-orch', 'ard\r\n']))).toBe('plum-orchard');
    expect(await readPasswordLine(input(['plum-orchard']))).toBe('plum-orchard');
  });

  it('more than one line from a pipe is refused without echoing any of it', async () => {
    const refused = readPasswordLine(input(['plum-orchard\n', 'second\n']));
    await expect(refused).rejects.toThrow('--password-stdin: standard input must hold the password on one line');
    await expect(readPasswordLine(input(['plum\rorchard']))).rejects.toThrow(/^--password-stdin: standard input must hold the password on one line$/);
  });

  it('from a terminal, reading ends at the first line', async () => {
    expect(await readPasswordLine(input(['plum-orchard\r\n', 'never read\n'], true))).toBe('plum-orchard');
  });
});

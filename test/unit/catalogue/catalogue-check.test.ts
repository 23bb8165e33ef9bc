import { Command } from 'commander';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { registerCatalogueCommands } from '../../../src/cli/catalogue.js';

async function check(file: string): Promise<{ output: string; exitCode: number | undefined }> {
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
  const program = new Command().exitOverride();
  registerCatalogueCommands(program);
  await program.parseAsync(['node', 'switchyard', 'catalogue', 'check', file]);
  write.mockRestore();
  const exitCode = typeof process.exitCode === 'number' ? process.exitCode : undefined;
  process.exitCode = undefined;
  return { output: chunks.join(''), exitCode };
}

describe('catalogue check', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  test('a valid file prints its counts and exits 0', async () => {
    const { output, exitCode } = await check('test/fixtures/catalogue/valid.yaml');
    expect(output).toBe('ok: 2 providers, 3 models, 5 endpoints\n');
    expect(exitCode).toBeUndefined();
  });

  test('an invalid file prints every problem as "path: message" and exits 1', async () => {
    const { output, exitCode } = await check('test/fixtures/catalogue/invalid.yaml');
    const lines = output.trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines).toContain('models[0].endpoints[1].provider: unknown provider "x"');
    expect(exitCode).toBe(1);
  });
});

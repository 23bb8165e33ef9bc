import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { registerCatalogueCommands } from '../../../src/cli/catalogue.js';

async function check(file: string, ...flags: string[]): Promise<{ output: string; exitCode: number | undefined }> {
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
  const program = new Command().exitOverride();
  registerCatalogueCommands(program);
  await program.parseAsync(['node', 'switchyard', 'catalogue', 'check', file, ...flags]);
  write.mockRestore();
  const exitCode = typeof process.exitCode === 'number' ? process.exitCode : undefined;
  process.exitCode = undefined;
  return { output: chunks.join(''), exitCode };
}

describe('catalogue check', () => {
  beforeEach(() => {
    vi.stubEnv('SIM_ALPHA_KEY', 'sk-test');
  });

  afterEach(() => {
    process.exitCode = undefined;
    vi.unstubAllEnvs();
  });

  test('a valid file prints its counts and exits 0', async () => {
    const { output, exitCode } = await check('test/fixtures/catalogue/valid.yaml');
    expect(output).toBe('ok: 2 providers, 3 models, 5 endpoints\n');
    expect(exitCode).toBeUndefined();
  });

  test('a provider whose api_key_env is unset is a warning naming the variable, and the file still passes', async () => {
    vi.stubEnv('SIM_ALPHA_KEY', '');
    const { output, exitCode } = await check('test/fixtures/catalogue/valid.yaml');
    expect(output).toBe([
      'warning: providers[0].api_key_env: SIM_ALPHA_KEY is not set: requests to provider sim-alpha carry no credential',
      'ok: 2 providers, 3 models, 5 endpoints',
      '',
    ].join('\n'));
    expect(exitCode).toBeUndefined();
  });

  test('under --strict an unset api_key_env is a problem and the check exits 1', async () => {
    vi.stubEnv('SIM_ALPHA_KEY', '');
    const { output, exitCode } = await check('test/fixtures/catalogue/valid.yaml', '--strict');
    expect(output).toBe('providers[0].api_key_env: SIM_ALPHA_KEY is not set: requests to provider sim-alpha carry no credential\n');
    expect(exitCode).toBe(1);
    vi.stubEnv('SIM_ALPHA_KEY', 'sk-test');
    expect(await check('test/fixtures/catalogue/valid.yaml', '--strict')).toEqual({ output: 'ok: 2 providers, 3 models, 5 endpoints\n', exitCode: undefined });
  });

  test('settings problems are listed with their paths', async () => {
    const { output, exitCode } = await check('test/fixtures/catalogue/invalid-settings.yaml');
    expect(output).toBe([
      'settings.rate_limits.per_key_per_minute: must be a positive integer',
      'settings.server.drain_grace: unknown field',
      '',
    ].join('\n'));
    expect(exitCode).toBe(1);
  });

  test('an invalid file prints every problem as "path: message" and exits 1', async () => {
    const { output, exitCode } = await check('test/fixtures/catalogue/invalid.yaml');
    const lines = output.trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines).toContain('models[0].endpoints[1].provider: unknown provider "x"');
    expect(exitCode).toBe(1);
  });
});

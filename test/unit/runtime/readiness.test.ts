import { describe, expect, it } from 'vitest';
import { readinessProbe } from '../../../src/runtime/readiness.js';

describe('the readiness probe', () => {
  it('is ready when every named check passes, and names each', async () => {
    const probe = readinessProbe([{ name: 'one', check: async () => undefined }, { name: 'two', check: async () => undefined }]);
    expect(await probe.probe()).toEqual({ ready: true, checks: [{ name: 'one', ok: true }, { name: 'two', ok: true }] });
  });

  it('is not ready when any check fails, naming it with its reason, the others still run', async () => {
    const probe = readinessProbe([
      { name: 'database', check: async () => { throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); } },
      { name: 'catalogue', check: async () => undefined },
    ]);
    expect(await probe.probe()).toEqual({
      ready: false,
      checks: [{ name: 'database', ok: false, reason: 'connect ECONNREFUSED 127.0.0.1:5432' }, { name: 'catalogue', ok: true }],
    });
  });

  it('an advisory check (Redis) is reported when it fails, but the instance stays ready', async () => {
    const probe = readinessProbe([
      { name: 'database', check: async () => undefined },
      { name: 'redis', advisory: true, check: async () => { throw new Error('Redis cannot be reached (reconnecting)'); } },
    ]);
    expect(await probe.probe()).toEqual({
      ready: true,
      checks: [{ name: 'database', ok: true }, { name: 'redis', ok: false, reason: 'Redis cannot be reached (reconnecting)' }],
    });
  });
});

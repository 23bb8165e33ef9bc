import { describe, expect, test } from 'vitest';
import { validateCatalogue } from '../../../src/catalogue/catalogue-schema.js';
import { DEFAULT_SETTINGS, resolveSettings } from '../../../src/settings/settings-table.js';
import { readEnvironmentSettings } from '../../../src/runtime/settings-environment.js';
import { catalogueDocument } from '../../fixtures/catalogue/documents.js';

function problemsOf(settings: unknown): string[] {
  const result = validateCatalogue({ ...catalogueDocument(), settings }, 0);
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

function settingsOf(settings: unknown) {
  const result = validateCatalogue({ ...catalogueDocument(), settings }, 0);
  if (!result.ok) throw new Error(result.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
  return result.settings;
}

describe('the settings: block', () => {
  test('is optional: a file without one sets nothing, and the defaults are the spec limits', () => {
    const result = validateCatalogue(catalogueDocument(), 0);
    expect(result.ok && result.settings).toEqual({});
    expect(DEFAULT_SETTINGS).toMatchObject({
      'rate_limits.per_key_per_minute': 600,
      'rate_limits.per_address_per_minute': 120,
      'server.body_limit_bytes': 8 * 1024 * 1024,
      'server.keep_alive_comment_ms': 15_000,
      trust_proxy: [],
    });
  });

  test('every setting written is read under its path', () => {
    expect(settingsOf({
      rate_limits: { per_key_per_minute: 60, per_address_per_minute: 10 },
      trust_proxy: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback'],
      server: { body_limit_bytes: 1024, drain_grace_ms: 2_000, headers_timeout_ms: 5_000, request_timeout_ms: 9_000 },
      upstream: { connect_timeout_ms: 3_000, first_byte_timeout_ms: 30_000, idle_timeout_ms: 60_000, connections_per_origin: 32 },
      database: { pool_size: 25 },
    })).toEqual({
      'rate_limits.per_key_per_minute': 60,
      'rate_limits.per_address_per_minute': 10,
      trust_proxy: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback'],
      'server.body_limit_bytes': 1024,
      'server.drain_grace_ms': 2_000,
      'server.headers_timeout_ms': 5_000,
      'server.request_timeout_ms': 9_000,
      'upstream.connect_timeout_ms': 3_000,
      'upstream.first_byte_timeout_ms': 30_000,
      'upstream.idle_timeout_ms': 60_000,
      'upstream.connections_per_origin': 32,
      'database.pool_size': 25,
    });
  });

  test('a value that is not a positive integer is a problem naming its path', () => {
    expect(problemsOf({ rate_limits: { per_key_per_minute: 0, per_address_per_minute: '120' }, server: { drain_grace_ms: 1.5 } })).toEqual([
      'settings.rate_limits.per_key_per_minute: must be a positive integer',
      'settings.rate_limits.per_address_per_minute: must be a positive integer',
      'settings.server.drain_grace_ms: must be a positive integer',
    ]);
  });

  test('unknown keys are problems, at every level', () => {
    expect(problemsOf({ probes: { enabled: true }, upstream: { timeout_ms: 5 }, rate_limits: 600 })).toEqual([
      'settings.probes: unknown field',
      'settings.rate_limits: must be a mapping',
      'settings.upstream.timeout_ms: unknown field',
    ]);
  });

  test('trust_proxy takes addresses, CIDRs and range names, and names the entry it cannot read', () => {
    expect(problemsOf({ trust_proxy: ['10.0.0.0/33', 'proxy.internal', '::1/129', '10.0.0.1'] })).toEqual([
      'settings.trust_proxy[0]: "10.0.0.0/33": the prefix length must be 0 to 32',
      'settings.trust_proxy[1]: "proxy.internal" is not an IP address, a CIDR or one of loopback, linklocal, uniquelocal',
      'settings.trust_proxy[2]: "::1/129": the prefix length must be 0 to 128',
    ]);
    expect(problemsOf({ trust_proxy: '10.0.0.1' })).toEqual(['settings.trust_proxy: must be a list']);
  });

  test('the head of a request may not be given longer than the whole request', () => {
    expect(problemsOf({ server: { headers_timeout_ms: 90_000 } })).toEqual([
      'settings.server.headers_timeout_ms: must not exceed server.request_timeout_ms (60000)',
    ]);
  });
});

describe('settings from the environment', () => {
  test('SWITCHYARD_ variables set what an operator sets per machine, and beat the file', () => {
    const environment = readEnvironmentSettings({
      SWITCHYARD_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      SWITCHYARD_DRAIN_GRACE_MS: '30000',
      SWITCHYARD_DATABASE_POOL_SIZE: '40',
      SWITCHYARD_UPSTREAM_CONNECTIONS: '64',
    });
    const file = settingsOf({ server: { drain_grace_ms: 2_000, body_limit_bytes: 4096 }, database: { pool_size: 5 } });
    expect(resolveSettings(file, environment)).toMatchObject({
      trust_proxy: ['10.0.0.0/8', '127.0.0.1'],
      'server.drain_grace_ms': 30_000,
      'server.body_limit_bytes': 4096,
      'database.pool_size': 40,
      'upstream.connections_per_origin': 64,
    });
  });

  test('an empty SWITCHYARD_TRUST_PROXY trusts no proxy, even one the file names', () => {
    const file = settingsOf({ trust_proxy: ['10.0.0.1'] });
    expect(resolveSettings(file, readEnvironmentSettings({ SWITCHYARD_TRUST_PROXY: '' })).trust_proxy).toEqual([]);
  });

  test('a bad value stops the start naming the variable', () => {
    expect(() => readEnvironmentSettings({ SWITCHYARD_DATABASE_POOL_SIZE: 'ten' })).toThrow('SWITCHYARD_DATABASE_POOL_SIZE: must be a positive integer, not "ten"');
    expect(() => readEnvironmentSettings({ SWITCHYARD_DRAIN_GRACE_MS: '0' })).toThrow('SWITCHYARD_DRAIN_GRACE_MS: must be a positive integer, not "0"');
    expect(() => readEnvironmentSettings({ SWITCHYARD_TRUST_PROXY: '10.0.0.1,nowhere' })).toThrow('SWITCHYARD_TRUST_PROXY: "nowhere" is not an IP address');
  });
});

describe('settings.prober', () => {
  test('capability checks run by default, every 60 minutes', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({ 'prober.enabled': true, 'prober.interval_minutes': 60 });
  });

  test('enabled and interval_minutes are read under their paths', () => {
    expect(settingsOf({ prober: { enabled: false, interval_minutes: 15 } })).toEqual({ 'prober.enabled': false, 'prober.interval_minutes': 15 });
  });

  test('a value of the wrong kind, or an unknown key, is a problem naming its path', () => {
    expect(problemsOf({ prober: { enabled: 'yes', interval_minutes: 0, every: 5 } })).toEqual(expect.arrayContaining([
      'settings.prober.enabled: must be true or false',
      'settings.prober.interval_minutes: must be a positive integer',
      expect.stringMatching(/^settings\.prober\.every: /),
    ]));
  });
});

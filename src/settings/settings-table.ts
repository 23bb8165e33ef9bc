/**
 * Every operator setting of the config file's `settings:` block, by its path in the YAML: its kind,
 * its default, the environment variable that may set it per machine, and whether a reload applies
 * it to the running server (the rest take effect at the next start). The schema reader, the
 * environment reader, the reload and the README's settings table all follow this one table.
 */
interface SettingSpec {
  /** `count`: a positive integer (requests, bytes, connections, milliseconds). `addresses`: IPs and CIDRs. `flag`: true or false. */
  kind: 'count' | 'addresses' | 'flag';
  fallback: number | readonly string[] | boolean;
  env?: string;
  live: boolean;
}

export const SETTING_TABLE = {
  'rate_limits.per_key_per_minute': { kind: 'count', fallback: 600, live: true },
  'rate_limits.per_address_per_minute': { kind: 'count', fallback: 120, live: true },
  trust_proxy: { kind: 'addresses', fallback: [], env: 'SWITCHYARD_TRUST_PROXY', live: false },
  'server.body_limit_bytes': { kind: 'count', fallback: 8 * 1024 * 1024, live: false },
  'server.headers_timeout_ms': { kind: 'count', fallback: 20_000, live: false },
  'server.request_timeout_ms': { kind: 'count', fallback: 60_000, live: false },
  'server.keep_alive_timeout_ms': { kind: 'count', fallback: 72_000, live: false },
  'server.keep_alive_comment_ms': { kind: 'count', fallback: 15_000, live: false },
  'server.drain_grace_ms': { kind: 'count', fallback: 10_000, env: 'SWITCHYARD_DRAIN_GRACE_MS', live: false },
  'upstream.connect_timeout_ms': { kind: 'count', fallback: 10_000, live: false },
  'upstream.first_byte_timeout_ms': { kind: 'count', fallback: 120_000, live: false },
  'upstream.idle_timeout_ms': { kind: 'count', fallback: 180_000, live: false },
  'upstream.connections_per_origin': { kind: 'count', fallback: 256, env: 'SWITCHYARD_UPSTREAM_CONNECTIONS', live: false },
  'database.pool_size': { kind: 'count', fallback: 10, env: 'SWITCHYARD_DATABASE_POOL_SIZE', live: false },
  'database.connect_timeout_ms': { kind: 'count', fallback: 5_000, live: false },
  'database.statement_timeout_ms': { kind: 'count', fallback: 30_000, live: false },
  'prober.enabled': { kind: 'flag', fallback: true, live: false },
  'prober.interval_minutes': { kind: 'count', fallback: 60, live: false },
  'files.max_upload_bytes': { kind: 'count', fallback: 100 * 1024 * 1024, live: false },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTING_TABLE;

type ValueOf<Spec> = Spec extends { kind: 'addresses' } ? readonly string[] : Spec extends { kind: 'flag' } ? boolean : number;

/** Every setting's value. */
export type Settings = { [Name in SettingName]: ValueOf<(typeof SETTING_TABLE)[Name]> };

/** The settings one source (the file, the environment, a caller) sets; the others keep theirs. */
export type SettingsPatch = Partial<Settings>;

export const SETTING_NAMES = Object.keys(SETTING_TABLE) as SettingName[];

export const DEFAULT_SETTINGS = Object.fromEntries(
  SETTING_NAMES.map((name) => [name, SETTING_TABLE[name].fallback]),
) as unknown as Settings;

/** Settings patches applied in order, later ones winning: defaults, the file, the environment, flags. */
export function resolveSettings(...patches: SettingsPatch[]): Settings {
  return patches.reduce<Settings>((settings, patch) => ({ ...settings, ...patch }), DEFAULT_SETTINGS);
}

/** The settings whose value differs between `before` and `after`, in table order. */
export function changedSettings(before: Settings, after: Settings): SettingName[] {
  return SETTING_NAMES.filter((name) => String(before[name]) !== String(after[name]));
}

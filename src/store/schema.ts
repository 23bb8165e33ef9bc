/**
 * Row types of every table, as Kysely sees them. Money columns are TEXT holding integer strings in
 * 10^-24 USD (they exceed int64); timestamps are epoch milliseconds; flags are INTEGER 0/1 so the
 * same SQL runs on SQLite and PostgreSQL.
 */

export type Flag = 0 | 1;

export interface AccountsTable {
  id: string;
  name: string;
  balance_units: string;
  reserved_units: string;
  suspended: Flag;
  created_at: number;
  /** The account's spend limit (integer string) and its window, or null. */
  limit_units: string | null;
  limit_reset: string | null;
}

export interface WorkspacesTable {
  id: string;
  account_id: string;
  name: string;
  /** JSON text of the workspace's routing defaults, or null. */
  routing_defaults: string | null;
  created_at: number;
  /** The workspace's spend limit (integer string) and its window, or null. */
  limit_units: string | null;
  limit_reset: string | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  account_id: string;
  name: string;
  /** SHA-256 hex of the raw key; the key itself is never stored. */
  hash: string;
  label: string;
  management: Flag;
  limit_units: string | null;
  limit_reset: string | null;
  expires_at: number | null;
  /** Set when the key was revoked (deleted): it never authenticates again. */
  revoked_at: number | null;
  created_at: number;
  /** A disabled key authenticates nothing until it is enabled again. */
  disabled: Flag;
  updated_at: number | null;
  /** The person who created the key (dashboard or approval), or null (CLI, management key). */
  creator_user_id: string | null;
  /** The callback origin of a key issued through the approval flow, or null. */
  origin: string | null;
}

/**
 * Charges of one spend scope (`key`, `workspace` or `account`) on one UTC day; the row at day
 * `LIFETIME_DAY` (-1) holds everything the scope was ever charged. The spend-limit windows sum days.
 */
export interface SpendUsageTable {
  scope: string;
  scope_id: string;
  day_start: number;
  amount_units: string;
}

/** A person who signs in to the web pages of one account. */
export interface UsersTable {
  id: string;
  account_id: string;
  /** Lowercased; unique over all accounts, so an email names one person. */
  email: string;
  /** argon2id, PHC string. */
  password_hash: string;
  role: 'owner' | 'member';
  created_at: number;
  /** Sessions created before this are no longer valid (sign out everywhere on a password change). */
  password_changed_at: number;
}

/** A signed-in browser: the id is the SHA-256 of the cookie's token, never the token. */
export interface SessionsTable {
  id: string;
  user_id: string;
  account_id: string;
  /** The secret the session's CSRF tokens are made from. */
  csrf_secret: string;
  created_at: number;
  expires_at: number;
}

/** Failed sign-ins per subject (`email:…` or `address:…`) in the current window, and any lock-out. */
export interface SignInFailuresTable {
  subject: string;
  failures: number;
  first_failure_at: number;
  locked_until: number | null;
}

/** A one-time code of the approval flow (PKCE): the id is the SHA-256 of the code. */
export interface AuthCodesTable {
  code_hash: string;
  account_id: string;
  user_id: string;
  workspace_id: string;
  callback_origin: string;
  /** base64url SHA-256 of the verifier (S256). */
  code_challenge: string;
  limit_units: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

/** One change to keys, limits, workspaces, routing defaults, users or credits; append-only. */
export interface AuditEventsTable {
  /** Time-ordered: newest last. */
  id: string;
  account_id: string;
  at: number;
  /** `user`, `management_key` or `cli`. */
  actor_kind: string;
  /** The user id or the management key's hash; null for the CLI. */
  actor_id: string | null;
  /** `cli`, `api`, `dashboard` or `approval`. */
  via: string;
  action: string;
  target: string | null;
  before_json: string | null;
  after_json: string | null;
  address: string | null;
}

export interface LedgerEntriesTable {
  id: string;
  account_id: string;
  /** Positive for a deposit, positive for a charge too: `kind` gives the direction. */
  amount_units: string;
  /**
   * Deposits. A charge is its generation's `cost_units` (migration 0012); a `charge` entry is one
   * written before that whose generation's row did not carry the same amount.
   */
  kind: 'deposit' | 'charge';
  generation_id: string | null;
  created_at: number;
}

export interface GenerationsTable {
  id: string;
  account_id: string;
  workspace_id: string;
  key_id: string;
  model: string;
  provider_slug: string | null;
  provider_name: string | null;
  endpoint_id: string | null;
  upstream_id: string | null;
  streamed: Flag;
  status: string;
  finish_reason: string | null;
  native_finish_reason: string | null;
  error_code: number | null;
  error_message: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_tokens: number | null;
  cache_write_tokens: number | null;
  reasoning_tokens: number | null;
  estimated_prompt_tokens: number;
  cost_units: string;
  /** JSON text: [{key, quantity, amount (integer string or null)}]. */
  cost_lines: string;
  /** What the reported usage priced above the charge (integer string), or null when all was charged. */
  uncollected_units: string | null;
  /** Why, comma-separated (`completion_over_ceiling`, `over_hold`), or null. */
  uncollected_reason: string | null;
  created_at: number;
  latency_ms: number | null;
  generation_ms: number | null;
  app_title: string | null;
  app_referer: string | null;
  /** JSON text or null. */
  metadata: string | null;
  /** The instance serving a generation while it is pending (kept once settled). */
  instance_id: string | null;
  /** The hold of a pending generation and its amount, for whoever settles it after a crash. */
  hold_id: string | null;
  held_units: string | null;
  /**
   * Where the hold reserves its credit in the database (PostgreSQL; see migrations/0013): when it
   * was taken, and when it expires. The hold is open while the row is pending and its expiry is
   * set; the reconciler releasing it clears the expiry, its settlement ends the pending status.
   */
  held_at: number | null;
  hold_expires_at: number | null;
}

/** One running gateway process: its heartbeat tells the others it is alive. */
export interface InstancesTable {
  id: string;
  /** Host name and process id, so a restart on the same host knows its predecessor is gone. */
  host: string;
  pid: number;
  started_at: number;
  heartbeat_at: number;
}

/** One instance's samples of one endpoint over one minute (see migrations/0005-endpoint-figures.ts). */
export interface EndpointFiguresTable {
  instance_id: string;
  endpoint_id: string;
  /** Minutes since the epoch. */
  minute: number;
  attempts: number;
  failures: number;
  tool_calls: number;
  tool_call_failures: number;
  streams: number;
  runaways: number;
  /** Sketches: protobuf in base64, null when empty (or cleared once older than a day). */
  ttft: string | null;
  response: string | null;
  throughput: string | null;
  /** The minute's renders (stats/render-sums.ts) as JSON, null when it rendered nothing; cleared with the sketches. */
  renders: string | null;
}

/** The latest capability check of one endpoint and capability (see prober/). */
export interface CapabilityChecksTable {
  endpoint_id: string;
  capability: string;
  passed: Flag;
  serving_revision: string;
  probe_version: number;
  checked_at: number;
  detail: string;
}

export interface MigrationsTable {
  id: string;
  applied_at: number;
}

/** The header of one sealed blob (see migrations/0008-stored-files.ts); `chunks` is null until it is complete. */
export interface BlobsTable {
  id: string;
  /** The data key sealing it, in the key store. */
  key_id: string;
  created_at: number;
  expires_at: number;
  chunks: number | null;
  /** Plaintext bytes, once complete. */
  bytes: number | null;
}

/** One sealed chunk of a blob: IV, ciphertext and tag. */
export interface BlobChunksTable {
  blob_id: string;
  seq: number;
  sealed: Buffer;
}

/** An account's stored file: its name for a complete blob, until it expires or is deleted. */
export interface StoredFilesTable {
  id: string;
  account_id: string;
  blob_id: string;
  filename: string;
  purpose: string;
  content_type: string;
  bytes: number;
  created_at: number;
  expires_at: number;
}

/** The single row whose revision advances with every change to what keys authenticate as. */
export interface KeyRevisionTable {
  id: number;
  revision: number;
}

export interface Database {
  accounts: AccountsTable;
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  spend_usage: SpendUsageTable;
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  auth_codes: AuthCodesTable;
  audit_events: AuditEventsTable;
  ledger_entries: LedgerEntriesTable;
  generations: GenerationsTable;
  switchyard_migrations: MigrationsTable;
  key_revision: KeyRevisionTable;
  instances: InstancesTable;
  endpoint_figures: EndpointFiguresTable;
  capability_checks: CapabilityChecksTable;
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
  stored_files: StoredFilesTable;
  batches: BatchesTable;
  batch_requests: BatchRequestsTable;
  batch_leases: BatchLeasesTable;
}

/** A batch (see migrations/0009-batches.ts): what the batch object reports, and what every send needs. */
export interface BatchesTable {
  id: string;
  account_id: string;
  workspace_id: string;
  /** The submitting key, read again before every request it sends. */
  key_hash: string;
  endpoint: string;
  model: string | null;
  status: string;
  /** JSON: the submission's attribution headers and `provider` default, and the data key sealing its requests and replies. */
  submission: string;
  /** The data key sealing the batch's requests and replies, in the key store. */
  key_id: string;
  input_file_id: string | null;
  created_at: number;
  expires_at: number;
  in_progress_at: number | null;
  cancelling_at: number | null;
  finalized_at: number | null;
  total: number;
  completed: number;
  failed: number;
  error_message: string | null;
  results_file_id: string | null;
}

/** One request of a batch, in submission order, and where it stands. */
export interface BatchRequestsTable {
  batch_id: string;
  seq: number;
  id: string;
  custom_id: string;
  /** `queued`, `sending`, `settled` or `failed`. */
  state: string;
  generation_id: string | null;
  /** The sealed body; cleared once the batch ended. */
  body: Buffer | null;
  /** The sealed result line; cleared once the results file holds it. */
  result: Buffer | null;
  /** How it counts: `completed`, `failed`, or null while it has not run. */
  outcome: string | null;
}

/** Which instance runs an account's batches, until when. */
export interface BatchLeasesTable {
  account_id: string;
  holder: string;
  expires_at: number;
}

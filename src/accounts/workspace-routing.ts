import { Value } from '@sinclair/typebox/value';
import type { ProviderPreferences } from '../core/request.js';
import { ProviderPreferencesSchema } from '../dialects/shared/routing-schema.js';
import { readProviderPreferences } from '../dialects/shared/provider-preferences.js';
import type { Store } from '../store/store.js';
import { bumpKeyRevision } from './key-revision.js';

/**
 * A workspace's routing defaults: a `provider` object in the request's own form, applied beneath
 * the explicit preferences of every request made with the workspace's keys.
 */
export async function setWorkspaceRoutingDefaults(store: Store, workspaceId: string, provider: unknown): Promise<void> {
  if (provider !== null && !Value.Check(ProviderPreferencesSchema, provider)) {
    const first = [...Value.Errors(ProviderPreferencesSchema, provider)][0];
    throw new RangeError(`provider${first?.path.replaceAll('/', '.') ?? ''}: ${first?.message ?? 'invalid'}`);
  }
  const updated = await store.write(async (tx) => {
    const written = await tx
      .updateTable('workspaces')
      .set({ routing_defaults: provider === null ? null : JSON.stringify(provider) })
      .where('id', '=', workspaceId)
      .executeTakeFirst();
    await bumpKeyRevision(tx);
    return written;
  });
  if (Number(updated.numUpdatedRows) === 0) throw new RangeError(`no workspace ${workspaceId}`);
}

/** The stored defaults in core form; a value that no longer reads is ignored rather than failing requests. */
export function readRoutingDefaults(stored: string | null): ProviderPreferences | undefined {
  if (stored === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(stored);
    return Value.Check(ProviderPreferencesSchema, parsed) ? readProviderPreferences(parsed) : undefined;
  } catch {
    return undefined;
  }
}

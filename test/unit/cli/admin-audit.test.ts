import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAudit } from '../../../src/accounts/audit.js';
import { adminDatabase, type AdminDatabase } from './admin-runner.js';

const PASSWORD = 'plum-orchard-1847';

let database: AdminDatabase;

beforeEach(() => {
  database = adminDatabase();
});

afterEach(() => database.remove());

describe('the audit trail of the command line', () => {
  it('each change (credits, key create and revoke, routing, user, workspace, limit) leaves one row with actor cli, and no secret', async () => {
    const { account_id: accountId, workspace_id: workspaceId, key } = await database.newAccount();
    const before = (await database.read((store) => readAudit(store.db, accountId, { limit: 100 }))).events.length;

    const issued = JSON.parse((await database.admin('key', 'create', '--account', accountId, '--name', 'ci', '--json')).stdout) as { key: string; id: string };
    const user = JSON.parse((await database.admin('user', 'create', '--account', accountId, '--email', 'ada@example.com', '--password', PASSWORD, '--json')).stdout) as { user_id: string };
    const workspace = JSON.parse((await database.admin('workspace', 'create', '--account', accountId, '--name', 'Research', '--json')).stdout) as { workspace_id: string };
    const steps: string[][] = [
      ['credits', 'add', '--account', accountId, '--usd', '5'],
      ['key', 'revoke', '--key-id', issued.id],
      ['workspace', 'routing', '--workspace', workspaceId, '--provider', '{"sort":"price"}'],
      ['limit', 'set', '--account', accountId, '--usd', '10', '--reset', 'weekly'],
      ['limit', 'set', '--workspace', workspace.workspace_id, '--usd', 'none'],
    ];
    for (const step of steps) expect((await database.admin(...step)).exitCode, step.join(' ')).toBe(0);

    const { events } = await database.read((store) => readAudit(store.db, accountId, { limit: 100 }));
    const made = events.slice(0, events.length - before).reverse();
    expect(made.map((event) => [event.action, event.actor, event.via, event.address])).toEqual([
      ['key.create', { kind: 'cli', id: null }, 'cli', null],
      ['user.create', { kind: 'cli', id: null }, 'cli', null],
      ['workspace.create', { kind: 'cli', id: null }, 'cli', null],
      ['credits.add', { kind: 'cli', id: null }, 'cli', null],
      ['key.revoke', { kind: 'cli', id: null }, 'cli', null],
      ['routing.set', { kind: 'cli', id: null }, 'cli', null],
      ['limit.set', { kind: 'cli', id: null }, 'cli', null],
      ['limit.set', { kind: 'cli', id: null }, 'cli', null],
    ]);
    expect(made.map((event) => event.target)).toEqual([
      expect.stringMatching(/^[0-9a-f]{64}$/), user.user_id, workspace.workspace_id, accountId, made[0]?.target, workspaceId, accountId, workspace.workspace_id,
    ]);
    expect(made[2]?.after).toEqual({ name: 'Research' });
    expect(made[6]).toMatchObject({ before: { scope: 'account' }, after: { scope: 'account', limit_usd: '10', limit_reset: 'weekly' } });
    const trail = JSON.stringify(events);
    for (const secret of [PASSWORD, key, issued.key]) expect(trail).not.toContain(secret);
  });
});

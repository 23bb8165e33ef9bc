import { describe, expect, it } from 'vitest';
import { isStoreUnreachable } from '../../../src/store/store-unreachable.js';

describe('telling a database that is away from a statement at fault', () => {
  it('a refused or dropped connection, a server shutting down, a pool out of time or SQLite busy is the database away', () => {
    const away = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    ];
    for (const error of away) expect(isStoreUnreachable(error), error.message).toBe(true);
  });

  it('a constraint, a syntax error or anything else is not', () => {
    const faults = [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }),
      new TypeError('x is undefined'),
      'a string',
      null,
    ];
    for (const error of faults) expect(isStoreUnreachable(error)).toBe(false);
  });
});

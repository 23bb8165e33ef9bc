import { describe, expect, it } from 'vitest';
import { clearFailures, lockedUntil, recordFailure, SIGN_IN_THROTTLE } from '../../../src/accounts/sign-in-throttle.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

const T0 = new Date('2025-07-01T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

describe.each(STORE_ENGINES)('the sign-in throttle on $name', (engine) => {
  const open = storeOpener(engine);

  it('five failures for one email within 15 minutes lock it out for 15 minutes, whatever the address', async () => {
    const store = await open();
    for (let i = 0; i < 4; i += 1) expect(await recordFailure(store, { email: 'ada@example.com', address: `10.0.0.${i}` }, at(i * MINUTE))).toBeNull();
    const until = await recordFailure(store, { email: 'ADA@example.com', address: '10.0.0.9' }, at(5 * MINUTE));
    expect(until).toEqual(at(5 * MINUTE + SIGN_IN_THROTTLE.lockoutMs));
    expect(await lockedUntil(store, { email: 'ada@example.com', address: '10.9.9.9' }, at(6 * MINUTE))).toEqual(until);
    expect(await lockedUntil(store, { email: 'bob@example.com', address: '10.9.9.9' }, at(6 * MINUTE))).toBeNull();
    expect(await lockedUntil(store, { email: 'ada@example.com', address: '10.9.9.9' }, at(20 * MINUTE))).toBeNull();
  });

  it('failures further apart than the window do not add up', async () => {
    const store = await open();
    for (let i = 0; i < 8; i += 1) expect(await recordFailure(store, { email: 'ada@example.com', address: `10.0.0.${i}` }, at(i * 4 * MINUTE))).toBeNull();
  });

  it('twenty failures from one address lock the address out, for every email', async () => {
    const store = await open();
    let until: Date | null = null;
    for (let i = 0; i < SIGN_IN_THROTTLE.addressFailures; i += 1) until = await recordFailure(store, { email: `p${i}@example.com`, address: '10.1.1.1' }, at(i * 1000));
    expect(until).not.toBeNull();
    expect(await lockedUntil(store, { email: 'new@example.com', address: '10.1.1.1' }, at(60_000))).toEqual(until);
    expect(await lockedUntil(store, { email: 'new@example.com', address: '10.1.1.2' }, at(60_000))).toBeNull();
  });

  it('a success clears the email\'s count', async () => {
    const store = await open();
    for (let i = 0; i < 4; i += 1) await recordFailure(store, { email: 'ada@example.com', address: `10.0.0.${i}` }, at(i * 1000));
    await clearFailures(store, 'ada@example.com');
    expect(await recordFailure(store, { email: 'ada@example.com', address: '10.0.0.7' }, at(5000))).toBeNull();
  });

  it('concurrent failures all count: five at once lock the email', async () => {
    const store = await open();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => recordFailure(store, { email: 'ada@example.com', address: `10.2.0.${i}` }, at(1000))));
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect(await lockedUntil(store, { email: 'ada@example.com', address: '10.3.3.3' }, at(2000))).not.toBeNull();
  });
});

import { sql } from 'kysely';
import { addressIdentity } from '../ratelimit/client-address.js';
import type { Store } from '../store/store.js';
import { normalEmail } from './users.js';

/**
 * Failed sign-ins are counted per email and per client address in `sign_in_failures`, so every
 * instance sharing the database sees the same counts. Within `windowMs` of its first failure, a
 * subject reaching its threshold is locked out for `lockoutMs`: no password is checked for it until
 * then. An address gets a higher threshold than an email, since many people can share one address.
 * A successful sign-in clears the email's count (not the address's).
 */
export interface SignInThrottleRules {
  /** Failures for one email, within the window, that lock it out. */
  emailFailures: number;
  /** Failures from one address, within the window, that lock it out. */
  addressFailures: number;
  windowMs: number;
  lockoutMs: number;
}

/** 5 failures for one email, or 20 from one address, within 15 minutes: locked out for 15 minutes. */
export const SIGN_IN_THROTTLE: SignInThrottleRules = {
  emailFailures: 5,
  addressFailures: 20,
  windowMs: 15 * 60 * 1000,
  lockoutMs: 15 * 60 * 1000,
};

/** Who a sign-in attempt is counted against: the email typed and the client's address. */
export interface SignInSubjects {
  email: string;
  address: string;
}

/** The rows an attempt is counted under, each with the threshold that locks it. */
function subjectRows(subjects: SignInSubjects, rules: SignInThrottleRules): { subject: string; threshold: number }[] {
  return [
    { subject: `email:${normalEmail(subjects.email)}`, threshold: rules.emailFailures },
    { subject: `address:${addressIdentity(subjects.address)}`, threshold: rules.addressFailures },
  ];
}

/** When the attempt's email or address may try again, or null when neither is locked out. */
export async function lockedUntil(store: Store, subjects: SignInSubjects, at: Date = new Date(), rules = SIGN_IN_THROTTLE): Promise<Date | null> {
  const rows = await store.db
    .selectFrom('sign_in_failures')
    .select(['locked_until'])
    .where('subject', 'in', subjectRows(subjects, rules).map((row) => row.subject))
    .where('locked_until', '>', at.getTime())
    .execute();
  const latest = Math.max(0, ...rows.map((row) => row.locked_until ?? 0));
  return latest > 0 ? new Date(latest) : null;
}

/**
 * Counts one failed sign-in against the email and the address (each in one atomic statement, so
 * concurrent failures on several instances all count); returns when they may try again if this
 * failure locked either out, else null.
 */
export async function recordFailure(store: Store, subjects: SignInSubjects, at: Date = new Date(), rules = SIGN_IN_THROTTLE): Promise<Date | null> {
  const now = at.getTime();
  const windowStart = now - rules.windowMs;
  const lockEnd = now + rules.lockoutMs;
  return store.write(async (tx) => {
    let locked = false;
    for (const { subject, threshold } of subjectRows(subjects, rules)) {
      const counted = await tx
        .insertInto('sign_in_failures')
        .values({ subject, failures: 1, first_failure_at: now, locked_until: null })
        .onConflict((conflict) => conflict.column('subject').doUpdateSet({
          failures: sql<number>`CASE WHEN sign_in_failures.first_failure_at <= ${windowStart} THEN 1 ELSE sign_in_failures.failures + 1 END`,
          first_failure_at: sql<number>`CASE WHEN sign_in_failures.first_failure_at <= ${windowStart} THEN ${now} ELSE sign_in_failures.first_failure_at END`,
        }))
        .returning('failures')
        .executeTakeFirstOrThrow();
      if (counted.failures < threshold) continue;
      // Locked: the count starts again once the lock-out is over.
      await tx.updateTable('sign_in_failures').set({ failures: 0, first_failure_at: now, locked_until: lockEnd }).where('subject', '=', subject).execute();
      locked = true;
    }
    return locked ? new Date(lockEnd) : null;
  });
}

/** A successful sign-in: the email's failures are forgotten. */
export async function clearFailures(store: Store, email: string): Promise<void> {
  await store.write(async (tx) => {
    await tx.deleteFrom('sign_in_failures').where('subject', '=', `email:${normalEmail(email)}`).execute();
  });
}

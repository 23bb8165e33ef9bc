/**
 * The version of the capability checks. Bump it whenever a check's request or judgement changes:
 * an effort level refuted under another version is no longer filtered (spec 02
 * `refuted_reasoning_efforts`), and every check becomes due again.
 */
export const PROBE_VERSION = 1;

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, driven by playwright-core (no downloaded browser). */
export const CHROMIUM_PATH = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Whether the browser tests can run. Without chromium they are skipped with the reason printed,
 * except under CI=true, where CI installs it (.ci/run): there a missing chromium fails the suite.
 */
function chromiumPresent(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const reason = `no chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
  if (process.env.CI === 'true') throw new Error(`CI=true requires chromium for the browser tests: ${reason}`);
  console.warn(`browser tests skipped: ${reason}`);
  return false;
}

export const CHROMIUM_PRESENT = chromiumPresent();

/** One headless chromium for a test file. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, headless: true });
}

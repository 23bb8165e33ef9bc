import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';

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

/**
 * The pages of a test file: one chromium launched before its tests (where it is present) and closed
 * after them; each page in a context of its own, 1280×800 unless `options` say otherwise, closed
 * after its test.
 */
export function browserPages(): (options?: BrowserContextOptions) => Promise<Page> {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (CHROMIUM_PRESENT) browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return async (options = {}) => {
    if (!browser) throw new Error('chromium was not launched');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    contexts.push(context);
    return context.newPage();
  };
}

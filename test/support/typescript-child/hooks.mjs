// Module hooks that let a child process run the TypeScript sources as they are, the way the test
// runner does: a relative `.js` import from a `.ts` file resolves to the `.ts` file beside it, and
// `.ts` files are stripped of their types by the transformer under the test runner (vitest → vite
// → rolldown's oxc), so a test can spawn a real gateway process without a build.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const fromVitest = createRequire(createRequire(import.meta.url).resolve('vitest/package.json'));
const fromVite = createRequire(fromVitest.resolve('vite/package.json'));
const { transformSync } = await import(pathToFileURL(fromVite.resolve('rolldown/utils')).href);

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent?.endsWith('.ts') && specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../'))) {
    const source = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (existsSync(source)) return { url: source.href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const path = fileURLToPath(url);
  const result = transformSync(path, await readFile(path, 'utf8'), { lang: 'ts', sourceType: 'module', sourcemap: false });
  if (result.errors.length > 0) throw new Error(`${path}: ${result.errors.map((error) => error.message).join('; ')}`);
  return { format: 'module', source: result.code, shortCircuit: true };
}

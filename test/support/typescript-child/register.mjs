// `node --import ./test/support/typescript-child/register.mjs some-file.ts` runs TypeScript sources (see hooks.mjs).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);

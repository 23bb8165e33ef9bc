/**
 * The `switchyard` command line from the TypeScript sources, as `bin/switchyard.js` runs the
 * compiled ones: `node --import ./test/support/typescript-child/register.mjs test/support/cli-process.ts ARGS…`.
 */
import { run } from '../../src/cli/main.js';

await run(process.argv);

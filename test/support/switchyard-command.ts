// `switchyard` run from the sources (with `node --import ./test/support/typescript-child/register.mjs`),
// so tests can call the command line as a reader would without a build.
import { main } from '../../src/cli/main.js';

await main(process.argv);

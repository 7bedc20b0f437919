/** Executable entry of the `dsh-tool-normalizer` bin (bundled to dist/cli.js): runs the dispatcher, exits with its code. */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
/** Executable entry of the `dsh-mcp-proxy` bin: runs the proxy command, exits with its code. */
import { run } from './cli.js';

process.exitCode = await run(process.argv.slice(2));

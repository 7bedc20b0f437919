/**
 * The baseline of the proxy's cost: `node bench/pipe.mjs -- <server command…>` starts the server and only pipes
 * stdio both ways (stdin to the server, the server's stdout to stdout), the least any process between an MCP client
 * and a stdio server can cost. `stdio-cost.bench.mjs` compares the proxy with it.
 */
import { spawn } from 'node:child_process';

const [separator, command, ...args] = process.argv.slice(2);
if (separator !== '--' || !command) {
  process.stderr.write('usage: pipe.mjs -- command args…\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

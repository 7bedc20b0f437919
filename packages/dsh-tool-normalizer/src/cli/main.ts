/**
 * The `dsh-tool-normalizer` command (the meta-package's `bin`): a small subcommand dispatcher. Each subcommand is
 * one line in `SUBCOMMANDS` (name, one-line summary, lazy import of a module exporting `run(args): Promise<number>`).
 */
export interface Subcommand {
  summary: string;
  load: () => Promise<{ run(args: string[]): Promise<number> }>;
}

export const SUBCOMMANDS: Record<string, Subcommand> = {
  doctor: {
    summary: 'check Node, DSH, the profile, the rc.8 workarounds, and boot the profile to see the plugin load',
    load: () => import('./doctor.js'),
  },
  analyze: {
    summary: 'what tool-call failures cost in your DSH session logs, and what healing would have saved',
    load: () => import('@dsh-tool-normalizer/session-analyzer/cli'),
  },
  'mcp-proxy': {
    summary: 'heal tools/call arguments between any MCP client and an MCP server (stdio or Streamable HTTP)',
    load: () => import('@dsh-tool-normalizer/mcp-proxy/cli'),
  },
};

export function usage(): string {
  const rows = Object.entries(SUBCOMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return [
    'usage: dsh-tool-normalizer <command> [options]',
    '',
    'commands:',
    ...rows,
    '',
    'Run `dsh-tool-normalizer <command> --help` for its options.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = SUBCOMMANDS[name];
  if (!command) {
    console.error(`dsh-tool-normalizer: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return (await command.load()).run(args);
}

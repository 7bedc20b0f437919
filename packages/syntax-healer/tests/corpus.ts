/**
 * Loads the fixture corpus (tests/fixtures/*.json) for the table-driven, property and agreement tests.
 * The files: valid programs (must come back byte-identical), mechanical breakages with the exact healed
 * program, programs that must be refused with a diagnostic, and compile-verdict corner cases.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ValidCase {
  name: string;
  code: string;
}

export interface ExpectedHeal {
  ok: boolean;
  changed: boolean;
  code?: string;
  repairs?: string[];
  diagnostic?: string;
  line?: number;
  column?: number;
}

export interface CorpusCase {
  name: string;
  code: string;
  expect: ExpectedHeal;
}

function load<T>(file: string): T[] {
  const url = new URL(`./fixtures/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as { cases: T[] }).cases;
}

export const validCases = load<ValidCase>('valid.json');
export const repairCases = load<CorpusCase>('repairs.json');
export const refusalCases = load<CorpusCase>('refusals.json');
/** Shell text inside template literals (issue 25): repairs with their exact output, and the refused readings. */
export const shellTemplateCases = load<CorpusCase>('shell-in-templates.json');
/**
 * Issue 31's classes (tests/fixtures/transport.json): `cls` names the class, `source` the public report the shape
 * comes from, a trap's `readings` are the different programs that all compile (why it is refused), and
 * `compilesMisread` marks an input that compiles only by reading HTML entities as code (it fails when run).
 */
export const transportCases = load<
  CorpusCase & { cls: string; source: string; readings?: string[]; compilesMisread?: boolean }
>('transport.json');
/** Compile-verdict corner cases: no expected heal, used where every program must behave consistently. */
export const compileEdgeCases = load<{ code: string; runtimeDependent?: string }>('compile-edges.json');

/**
 * Realistic agent programs (tests/fixtures/agent-programs.txt), valid as sent: blocks that start with a line
 * `//// <name>`; lines starting with `#` before the first block are the file's own comments.
 */
export const agentPrograms: ValidCase[] = readFileSync(
  fileURLToPath(new URL('./fixtures/agent-programs.txt', import.meta.url)),
  'utf8',
)
  .split(/^\/\/\/\/ /m)
  .slice(1)
  .map((block) => {
    const newline = block.indexOf('\n');
    return { name: block.slice(0, newline), code: block.slice(newline + 1).replace(/\n$/, '') };
  });

/** Programs whose verdict depends on the V8 version that compiles them (so Node 20 and Node 24 differ). */
export const runtimeDependentPrograms = new Set(
  compileEdgeCases.filter((entry) => entry.runtimeDependent).map((entry) => entry.code),
);

/** Every program in the corpus: inputs, and the healed outputs the repairs expect. */
export function allPrograms(): string[] {
  return [
    ...validCases.map((entry) => entry.code),
    ...agentPrograms.map((entry) => entry.code),
    ...repairCases.flatMap((entry) => [entry.code, entry.expect.code ?? entry.code]),
    ...refusalCases.map((entry) => entry.code),
    ...shellTemplateCases.flatMap((entry) => [entry.code, entry.expect.code ?? entry.code]),
    ...compileEdgeCases.map((entry) => entry.code),
    ...transportCases.flatMap((entry) => [entry.code, entry.expect.code ?? entry.code, ...(entry.readings ?? [])]),
  ];
}

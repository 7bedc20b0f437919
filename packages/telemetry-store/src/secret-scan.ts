/**
 * The second redaction layer: secretlint's maintained rules (its recommended preset, which in 13.x already
 * includes the OpenAI, Anthropic and database-connection-string rules) run over every text of an event after this
 * package's own structural and pattern redaction. secretlint is asynchronous and loads dozens of rules, so it is
 * imported lazily and only ever runs in the store's writer, never in `record()`. Node only.
 */
import { REDACTED } from './redact.js';

type LintSource = typeof import('@secretlint/core').lintSource;
interface Scanner {
  lintSource: LintSource;
  rules: { id: string; rule: unknown }[];
}

let scanner: Promise<Scanner> | undefined;

function loadScanner(): Promise<Scanner> {
  scanner ??= (async () => {
    const [{ lintSource }, { creator: preset }, { secretLintProfiler }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    // secretlint's profiler is on by default and puts performance marks for every rule of every scan into the
    // process-wide performance timeline: in a long-lived DSH process that grows without bound.
    secretLintProfiler.setEnabled(false);
    return { lintSource, rules: [{ id: preset.meta.id, rule: preset }] };
  })();
  return scanner;
}

/** Separates texts scanned together; a match is applied to every text it overlaps. */
const SEPARATOR = '\n\n';

/**
 * Replaces every secret secretlint finds in `texts` (scanned as one document, one call per event) with the
 * redaction marker. Texts without findings are returned unchanged.
 */
export async function scanSecrets(texts: readonly string[]): Promise<string[]> {
  const { lintSource, rules } = await loadScanner();
  const content = texts.join(SEPARATOR);
  const result = await lintSource({
    source: { filePath: '/telemetry-event.txt', content, contentType: 'text' },
    options: { config: { rules: rules as never }, maskSecrets: false },
  });
  if (result.messages.length === 0) return [...texts];
  const out: string[] = [];
  let start = 0;
  for (const text of texts) {
    const end = start + text.length;
    const ranges = result.messages
      .map((message) => message.range)
      .filter(([from, to]) => from < end && to > start)
      .map(([from, to]) => [Math.max(from, start) - start, Math.min(to, end) - start] as const)
      .sort((a, b) => a[0] - b[0]);
    let redacted = '';
    let copied = 0;
    for (const [from, to] of ranges) {
      if (to <= copied) continue;
      redacted += text.slice(copied, Math.max(copied, from)) + REDACTED;
      copied = to;
    }
    out.push(redacted + text.slice(copied));
    start = end + SEPARATOR.length;
  }
  return out;
}

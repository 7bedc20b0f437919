/**
 * The second redaction layer: secretlint's maintained rules (its recommended preset, which in 13.x already
 * includes the OpenAI, Anthropic and database-connection-string rules) run over every text of an event after the
 * shared structural and pattern redaction. Each text is scanned on its own, and secretlint's comment directives
 * (`secretlint-disable`, `-enable`, `-disable-line`, `-disable-next-line`) are never honoured: stored text is data,
 * not a linted repository, and a model writes such comments whenever a repository uses secretlint. secretlint is
 * asynchronous and loads dozens of rules, so it is imported lazily and only ever runs in the store's writer, never
 * in `record()`. Node only.
 */
import { REDACTED } from './redact.js';

type LintSource = typeof import('@secretlint/core').lintSource;
type LintOptions = Parameters<LintSource>[0]['options'];
interface Scanner {
  lintSource: LintSource;
  options: LintOptions;
}

/**
 * The preset rule that turns secretlint's directives into "ignore" ranges (its only source of ignores; see
 * `@secretlint/secretlint-rule-filter-comments` in the preset's bundle). It is left out by id.
 */
export const DIRECTIVE_RULE_ID = '@secretlint/secretlint-rule-filter-comments';

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
    // Fail closed: if a preset release renamed the directive rule, leaving it out by id would silently do nothing,
    // so the scan refuses to run (the store then keeps free text as "[REDACTED: secret scan unavailable]").
    if (!preset.rules.some((rule) => rule.meta.id === DIRECTIVE_RULE_ID)) {
      throw new Error(`secretlint preset has no ${DIRECTIVE_RULE_ID}; directives could not be switched off`);
    }
    // Each rule of the preset is given as a rule of its own, all but the directive rule: a preset's `rules`
    // entry with `disabled: true` is not honoured for rules inside a preset (secretlint 13.1 only checks
    // `disabled` on top-level descriptors), so the preset itself cannot be passed.
    const rules = preset.rules
      .filter((rule) => rule.meta.id !== DIRECTIVE_RULE_ID)
      .map((rule) => ({ id: rule.meta.id, rule }));
    return { lintSource, options: { config: { rules: rules as never }, maskSecrets: false } };
  })();
  return scanner;
}

/**
 * Longest piece of a text secretlint scans in one call; a longer text is scanned in pieces that overlap by
 * `SLICE_OVERLAP`, so a token on a piece boundary lies whole inside one of them. Bounds one call's work (a
 * crafted 16 KiB piece takes about 8 ms; secretlint's rules run synchronously inside one call), and the scan
 * yields to the event loop between calls, so DSH's other work runs between pieces.
 */
export const SLICE_CHARS = 16 * 1024;
/** Overlap between pieces: longer than any token secretlint's rules match on one line. */
export const SLICE_OVERLAP = 4 * 1024;

/**
 * Texts shorter than this are not scanned: no secret any rule of the preset describes is this short (the
 * shortest, a database URL or a Slack token, need more than 10 characters), and each `lintSource` call costs
 * about 0.8 ms whatever the length, so skipping rule ids, short call ids and names keeps the writer fast.
 */
export const MIN_SCANNED_CHARS = 8;

/** Lets timers and I/O run (a resolved promise would not: it continues in the same macrotask). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The ranges secretlint reports for one text (offsets into that text). */
async function findRanges(text: string, { lintSource, options }: Scanner): Promise<[number, number][]> {
  const ranges: [number, number][] = [];
  for (let start = 0; start < text.length; start += SLICE_CHARS - SLICE_OVERLAP) {
    if (start > 0) await yieldToEventLoop();
    const content = text.slice(start, start + SLICE_CHARS);
    const result = await lintSource({
      source: { filePath: '/telemetry-text.txt', content, contentType: 'text' },
      options,
    });
    for (const { range } of result.messages) ranges.push([range[0] + start, range[1] + start]);
    if (start + SLICE_CHARS >= text.length) break;
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** `text` with every range replaced by the redaction marker (overlapping ranges merged). */
function replaceRanges(text: string, ranges: readonly [number, number][]): string {
  let out = '';
  let copied = 0;
  for (const [from, to] of ranges) {
    if (to <= copied) continue;
    out += text.slice(copied, Math.max(copied, from)) + REDACTED;
    copied = to;
  }
  return out + text.slice(copied);
}

/**
 * Replaces every secret secretlint finds in each of `texts` (each scanned on its own, directives ignored) with
 * the redaction marker. Same length and order out as in; texts without findings are returned unchanged.
 */
export async function scanSecrets(texts: readonly string[]): Promise<string[]> {
  const loaded = await loadScanner();
  const out: string[] = [];
  for (const text of texts) {
    if (text.length < MIN_SCANNED_CHARS) {
      out.push(text);
      continue;
    }
    if (out.length > 0) await yieldToEventLoop();
    const ranges = await findRanges(text, loaded);
    out.push(ranges.length === 0 ? text : replaceRanges(text, ranges));
  }
  return out;
}

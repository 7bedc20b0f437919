/**
 * A small reader of the Prometheus text exposition format for tests: samples with their labels, so a test can
 * sum a metric over label filters the way PromQL's `sum` would. (The real-host test uses a real Prometheus.)
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(LABEL)) {
      labels[label[1]!] = label[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Sum of a metric's samples whose labels include `where`. */
export function sumOf(samples: readonly Sample[], name: string, where: Record<string, string> = {}): number {
  let total = 0;
  for (const sample of samples) {
    if (sample.name !== name) continue;
    if (Object.entries(where).every(([key, value]) => sample.labels[key] === value)) total += sample.value;
  }
  return total;
}

/**
 * What dsmlTextMiddleware costs (figures printed, never asserted): a plain text stream passing through it (the
 * cost every response pays) against the raw stream and against an identity TransformStream (what any stream
 * middleware pays in Node's web streams), and one healed response (sglang #35736's block) in generate.
 * Run after a build: node bench/dsml-text.bench.mjs
 */
import { dsmlTextMiddleware } from '@dsh-tool-normalizer/ai-sdk';

const D = '｜DSML｜';
const BLOCK = `<${D}tool_calls>\n<${D}invoke name="Bash">\n<${D}parameter name="command" string="true">pwd</${D}parameter>\n</${D}invoke>\n</${D}tool_calls>`;
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const params = {
  prompt: [],
  tools: [
    { type: 'function', name: 'Bash', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  ],
};
const middleware = dsmlTextMiddleware();

function parts(count, delta) {
  return [
    { type: 'text-start', id: 't' },
    ...Array.from({ length: count }, () => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
}
/** A stream that hands out one part per pull, as a provider's network stream does. */
function streamOf(list) {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < list.length) controller.enqueue(list[next++]);
      else controller.close();
    },
  });
}

async function drain(stream) {
  let count = 0;
  for await (const _ of stream) count++;
  return count;
}

const identity = () => new TransformStream({ transform: (part, controller) => controller.enqueue(part) });

async function timeStream(list, how) {
  const started = performance.now();
  const result =
    how === 'middleware'
      ? await middleware.wrapStream({ doStream: async () => ({ stream: streamOf(list) }), params })
      : { stream: how === 'identity' ? streamOf(list).pipeThrough(identity()) : streamOf(list) };
  await drain(result.stream);
  return performance.now() - started;
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const [label, list] of [
  ['100k deltas of 8 characters, plain text', parts(100_000, 'a b < c ')],
  ['10k deltas of 100 characters, plain text', parts(10_000, 'x'.repeat(100))],
]) {
  const raw = [];
  const same = [];
  const wrapped = [];
  for (let run = 0; run < 5; run++) {
    raw.push(await timeStream(list, 'raw'));
    same.push(await timeStream(list, 'identity'));
    wrapped.push(await timeStream(list, 'middleware'));
  }
  const perDelta = (values) => (((median(values) - median(raw)) / (list.length - 3)) * 1000).toFixed(1);
  console.log(
    `${label}: raw ${median(raw).toFixed(0)} ms; identity TransformStream +${perDelta(same)} µs per delta; the middleware +${perDelta(wrapped)} µs per delta`,
  );
}

const healed = [];
for (let run = 0; run < 200; run++) {
  const result = {
    content: [{ type: 'text', text: `Let me look.\n${BLOCK}` }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
  const started = performance.now();
  const answer = await middleware.wrapGenerate({ doGenerate: async () => result, params });
  healed.push(performance.now() - started);
  if (answer.content.length !== 2) throw new Error('not healed');
}
console.log(`generate, sglang #35736 block healed: median ${(median(healed) * 1000).toFixed(0)} µs per response`);

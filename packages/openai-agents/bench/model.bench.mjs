/**
 * What `healModel` adds to one model response, outside any run: a fixed inner model answers a prepared response
 * (text only, a valid call, a broken call), and the wrapped `getResponse` is timed many times against the bare one.
 * Run after a build: node bench/model.bench.mjs. Figures are printed, never asserted.
 */
import { healModel } from '../dist/index.js';

const bash = {
  type: 'function',
  name: 'bash',
  description: 'Run a shell command',
  strict: true,
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' }, description: { type: 'string' } },
    required: ['command', 'description'],
    additionalProperties: false,
  },
};
const read = {
  type: 'function',
  name: 'read',
  description: 'Read a file',
  strict: false,
  parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
};
const request = {
  input: 'go',
  modelSettings: {},
  tools: [bash, read],
  handoffs: [],
  outputType: 'text',
  tracing: false,
};
const usage = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const call = (name, args) => ({ type: 'function_call', callId: 'c1', name, arguments: args, status: 'completed' });
const cases = [
  [
    'text only',
    [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi' }] }],
  ],
  ['valid call', [call('bash', '{"command":"ls","description":"List"}')]],
  ['alias + fill (bash {"cmd"})', [call('bash', '{"cmd":"ls -la"}')]],
  ['unknown name (read_file)', [call('read_file', '{"file_path":"a"}')]],
  ['refused: cut-off JSON', [call('bash', '{"command": "rm -rf /srv/app/rel')]],
];

function percentiles(times) {
  times.sort((a, b) => a - b);
  const at = (q) => (times[Math.floor(times.length * q)] * 1000).toFixed(0).padStart(5);
  return `median ${at(0.5)} µs, p99 ${at(0.99)} µs`;
}

for (const [label, output] of cases) {
  const response = { usage, output, responseId: 'r' };
  const inner = { getResponse: async () => response, getStreamedResponse: async function* () {} };
  const healed = healModel(inner);
  for (let i = 0; i < 200; i++) await healed.getResponse(request);
  const times = [];
  for (let i = 0; i < 5000; i++) {
    const start = performance.now();
    await healed.getResponse(request);
    times.push(performance.now() - start);
  }
  console.log(`${label.padEnd(32)} ${percentiles(times)}`);
}

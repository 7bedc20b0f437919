/** Public entry of @dsh-tool-normalizer/mcp-proxy: re-exports only. */
export { createHealer, invalidArgumentsHint, MCP_RULE_IDS, type Healer, type HealVerdict } from './heal.js';
export { CallRelay, SERVER_GONE_CODE, type ClientStep, type Recorder, type RelayOptions } from './relay.js';
export { LineTransport, DEFAULT_MAX_FRAME_BYTES } from './frames.js';
export { runStdioProxy, type StdioProxyOptions } from './stdio.js';
export { startHttpProxy, type HttpProxy, type HttpProxyOptions } from './http.js';

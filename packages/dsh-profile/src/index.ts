/** The DSH host profile: what the tool normalizer knows about DeepSeek Harness releases, one concept per module. */
export * from './compatibility-gate.js';
export * from './error-vocabulary.js';
export * from './host-decisions.js';
export * from './log-formats.js';
export * from './releases.js';
export * from './stream-protocol.js';
export * from './sub-call-events.js';

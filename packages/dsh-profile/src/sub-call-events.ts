/**
 * The names DSH gives a Code-Mode program's sub-calls: the plugin hook that reports one settled sub-call, the session
 * log events, and the infix of sub-call ids. They were renamed with Code Mode (`code` → `ptc`); whoever reads sub-calls
 * reads both vocabularies (`SUB_CALL_EVENTS`, `SUB_CALL_HOOKS`). Sources: docs/host-facts.md ("Session log formats").
 */

export interface SubCallVocabulary {
  /** The plugin hook fired for one settled sub-call. */
  hook: string;
  /** The session log event of one settled sub-call. */
  logEvent: string;
  /** The log event written when a sub-call starts, where the release writes one. */
  startEvent: string | undefined;
  /** Sub-call ids are `<parentCallId>:<idInfix>:<n>`. */
  idInfix: string;
  /** True when a settled sub-call may carry `error: { name, code, reason? }`. */
  carriesErrorCode: boolean;
}

/** rc.8 and 0.1.1-rc.2 (Code Mode `code`): measured on rc.8 (apps/dsh-lab session logs). */
export const CODE_SUB_CALLS: SubCallVocabulary = {
  hook: 'tools/code-dispatch-log',
  logEvent: 'tool/code-dispatch',
  startEvent: undefined,
  idInfix: 'code',
  carriesErrorCode: false,
};

/**
 * 0.1.7 and 0.2.x (Code Mode `ptc`): zq0929/deepseek-harness @ 5593cc25, packages/core/tools/src/types.ts and
 * index.ts (`CodeDispatchLog` became `PtcDispatchLog`).
 */
export const PTC_SUB_CALLS: SubCallVocabulary = {
  hook: 'tools/ptc-dispatch-log',
  logEvent: 'tool/ptc-dispatch',
  startEvent: 'tool/ptc-dispatch-start',
  idInfix: 'ptc',
  carriesErrorCode: true,
};

/** Both vocabularies, oldest first. */
export const SUB_CALL_VOCABULARIES: readonly SubCallVocabulary[] = [CODE_SUB_CALLS, PTC_SUB_CALLS];

/** Log events of one settled sub-call, in every release's vocabulary. */
export const SUB_CALL_EVENTS: ReadonlySet<string> = new Set(SUB_CALL_VOCABULARIES.map((words) => words.logEvent));

/** Plugin hooks of one settled sub-call, in every release's vocabulary. */
export const SUB_CALL_HOOKS: ReadonlySet<string> = new Set(SUB_CALL_VOCABULARIES.map((words) => words.hook));

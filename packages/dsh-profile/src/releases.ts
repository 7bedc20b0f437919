/**
 * The DSH release table: every release users may run, with the per-release facts the plugin, the doctor, the lab and
 * the analyzer act on (Code Mode's name, the program runtime and wrapper, the session log, the sub-call event names,
 * the settings seats, the compatibility gate), and `releaseFacts(version)`, the one lookup. The next DSH release is a
 * new row here. Each fact group names its source; the prose is docs/host-facts.md ("Other DSH releases").
 */
import semver from 'semver';
import { type LogFormatFacts, LOG_FORMAT_0, LOG_FORMAT_3, LOG_FORMAT_4 } from './log-formats.js';
import { CODE_SUB_CALLS, PTC_SUB_CALLS, type SubCallVocabulary } from './sub-call-events.js';

/** Every DSH tag users may run, oldest first (issue 22's list; npm `latest` was 0.2.0-rc.2 in October 2026). */
export const DSH_RELEASES = [
  '0.1.0-rc.8',
  '0.1.1-rc.2',
  '0.1.5-rc.1',
  '0.1.5-rc.2',
  '0.1.5-rc.3',
  '0.1.6-alpha.2',
  '0.1.7-alpha.1',
  '0.1.7-alpha.2',
  '0.1.7-rc.1',
  '0.1.7-rc.2',
  '0.2.0-rc.1',
  '0.2.0-rc.2',
  '0.2.1-alpha.1',
  '0.2.1-alpha.2',
] as const;

export type DshRelease = (typeof DSH_RELEASES)[number];

/** The one release the test suite boots live (apps/dsh-lab provisions it from npm). */
export const DSH_LIVE = '0.1.0-rc.8' satisfies DshRelease;

/** Code Mode's name in `DSH_TOOLS_MODE` and `tools: { mode }` (`tool-presentation`); the other name is a schema error. */
export type CodeModeName = 'code' | 'ptc';

/** The client slot where a plugin's options belong. */
export type OptionsSeat = 'settings.plugin.item' | 'plugins.row.config';

/**
 * How the plugin's live options reach the host and come back (docs/host-facts.md, "Where live options live"):
 * - `settings-namespace`: the host's `settings` service registers a namespace (`ctx.settings.register(ns, schema,
 *   { base })`, a scope with `get`/`watch`); the user layer is the namespace's section of `$DSH_HOME/settings.yaml`;
 *   the browser binds it with `settingsScope.bind({ namespace })`.
 * - `volatile-config`: there is no `register`; the host's `settings` service (SettingsForms) derives a form from the
 *   fields of the loader row's `Config` schema marked `.volatile()`, writes edits into the profile patch, and the
 *   loader commits them into the plugin's `Volatile` references and emits `loader/volatile-update`; the browser reads
 *   the entry with `configForms.get(<row id>)`. `settings.yaml` is imported into the profile once and renamed.
 */
export type LiveOptionsTransport = 'settings-namespace' | 'volatile-config';

/** How a release's facts were established. */
export type Proof = 'live' | 'by-hand' | 'fixture';

export interface ProgramRuntime {
  /** The host package that runs `run_code` programs. */
  package: string;
  /** How a program is compiled, in words (the healer's `compilesLikeHost` follows rc.8's). */
  wrapper: string;
}

/** Facts that were read in a source, or inferred (said per fact in `unconfirmed`). */
export interface ReleaseFacts {
  /** The version asked about. */
  version: string;
  /** True when `version` is one of `DSH_RELEASES`. */
  known: boolean;
  /** The known release whose facts these are: `version` itself, else the nearest known release. */
  basis: DshRelease;
  /** Set for an unknown version: which known release stands in, in words. */
  note?: string;
  proof: Proof;
  codeModeName: CodeModeName;
  /** Every value `tools.mode` accepts on this release. */
  presentationModes: readonly string[];
  programRuntime: ProgramRuntime;
  logFormat: LogFormatFacts;
  subCalls: SubCallVocabulary;
  optionsSeat: OptionsSeat;
  /** How live options are stored, read and written on this release (`LiveOptionsTransport`). */
  liveOptions: LiveOptionsTransport;
  /** The client settings-form type: `SettingsScope` (`ctx.settingsScope`) until 0.2.0, `ConfigForm` (`ctx.configForms`) after. */
  settingsForm: 'SettingsScope' | 'ConfigForm';
  /** 0.1.7-rc.1 and later refuse a plugin whose `@deepseek-ai/dsh*` peers the running version does not satisfy. */
  hasCompatibilityGate: boolean;
  /** The hmr pin and the hmr row (docs/host-facts.md#boot-workarounds): rc.8 only. */
  needsRc8Workarounds: boolean;
  /** Facts of this row that no source confirms for this release (taken from the nearest release that has them). */
  unconfirmed: readonly (keyof ReleaseFacts)[];
  /** Where the facts come from. */
  sources: readonly string[];
}

type Row = Omit<ReleaseFacts, 'version' | 'known' | 'basis' | 'note'>;

const RC8_SOURCE =
  'measured on the installed @deepseek-ai/dsh@0.1.0-rc.8 (apps/dsh-lab; /work/shared/dsh-captures; docs/host-facts.md)';
const RC2_SOURCE =
  'deepseek-ai/deepseek-harness @ b150a551b8 (0.1.1-rc.2), built and run by hand (issue 22): Code Mode `code`, `ptc` a schema error';
const V015_SOURCE =
  'zsagi1368/deepseek-harness-zDSH @ 30f71de5f3360c607ce8eaa5262c0cac5df7f1fb, packages/core/session/src/types.ts (format 3)';
const V017_SOURCE =
  'zsagi1368/deepseek-harness-zDSH @ 1dd6c6a308f1db1d57f6d117d673e73f00072b68 (0.1.7-rc.2): packages/core/tools/src/index.ts (`native | ptc | both`), packages/ptc-runtime/ptc-runtime-node/src/bootstrap.ts, packages/boot/app-boot/src/plugin-compatibility.ts';
const V021_SOURCE =
  'zq0929/deepseek-harness @ 5593cc250aae228449197efd2413192165e3377f (0.2.1-alpha.2): packages/core/tools/src/index.ts (`native | ptc`), packages/core/session/src/types.ts (format 4), packages/client/ui-plugin-manager/src/client/slot-contract.ts';
const RC2_SETTINGS_SOURCE =
  'deepseek-ai/deepseek-harness @ b150a551b8 (0.1.1-rc.2), packages/settings/settings/src/index.ts (`SettingsProvider.register`)';
const V017RC2_SETTINGS_SOURCE =
  'zsagi1368/deepseek-harness-zDSH @ 1dd6c6a308f1db1d57f6d117d673e73f00072b68 (0.1.7-rc.2): packages/settings/settings/src/index.ts (`SettingsForms`: describe/update/mutate, no register; settings.yaml imported into the profile), packages/settings/settings/src/schema.ts (`volatileForm`), packages/client/ui-settings/src/client/config-form.ts (`configForms.get(entryId)`), docs/cookbook/adding-a-settings-card.md (`.volatile()`, `loader/volatile-update`)';
const CODEMODE_SOURCE =
  'Justar96/bake @ 33d57d91d13b6a31f2a150f751e80d5742d0da9a, packages/ptc-runtime/ptc-runtime-codemode/src/program.ts';

const RC8_RUNTIME: ProgramRuntime = {
  package: '@deepseek-ai/dsh-code-runtime',
  wrapper:
    "`async function __dsh_program__() {\\n<code>\\n}`, types stripped with module.stripTypeScriptTypes, the body compiled as new AsyncFunction('tools', 'ToolCallError', 'console', \"'use strict';\\n\" + body) in a worker thread",
};

const PTC_RUNTIME: ProgramRuntime = {
  package: '@deepseek-ai/dsh-ptc-runtime',
  wrapper:
    'the same strip-only wrapper, then a strict async function: the Node provider (ptc-runtime-node, the base bundle default) runs it in a child process; the QuickJS provider (ptc-runtime-codemode) wraps it in `__dsh_main__` with binding namespaces as parameters',
};

const rc8: Row = {
  proof: 'live',
  codeModeName: 'code',
  presentationModes: ['native', 'code', 'both'],
  programRuntime: RC8_RUNTIME,
  logFormat: LOG_FORMAT_0,
  subCalls: CODE_SUB_CALLS,
  optionsSeat: 'settings.plugin.item',
  liveOptions: 'settings-namespace',
  settingsForm: 'SettingsScope',
  hasCompatibilityGate: false,
  needsRc8Workarounds: true,
  unconfirmed: [],
  sources: [RC8_SOURCE],
};

const rc2: Row = {
  ...rc8,
  proof: 'by-hand',
  needsRc8Workarounds: false,
  unconfirmed: ['subCalls', 'programRuntime'],
  sources: [RC2_SOURCE, RC2_SETTINGS_SOURCE],
};

/** 0.1.5 and 0.1.6: log format 3 is read in source; Code Mode's name there is inferred from 0.1.7 (zDSH @ 6c61ddef has `ptc` with the old `ctx.codeRuntime`). */
const v015: Row = {
  ...rc8,
  proof: 'fixture',
  codeModeName: 'ptc',
  presentationModes: ['native', 'ptc', 'both'],
  logFormat: LOG_FORMAT_3,
  subCalls: PTC_SUB_CALLS,
  needsRc8Workarounds: false,
  unconfirmed: ['codeModeName', 'presentationModes', 'subCalls', 'programRuntime', 'liveOptions'],
  sources: [
    V015_SOURCE,
    'zsagi1368/deepseek-harness-zDSH @ 6c61ddef7eb1359aa10c44cf74103eb527aa91ae, packages/core/tools/src/index.ts (`ptc` beside `ctx.codeRuntime`)',
  ],
};

const v016: Row = { ...v015, unconfirmed: [...v015.unconfirmed, 'logFormat'] };

const v017alpha: Row = {
  ...v015,
  programRuntime: PTC_RUNTIME,
  logFormat: LOG_FORMAT_4,
  unconfirmed: ['codeModeName', 'presentationModes', 'subCalls', 'programRuntime', 'logFormat', 'liveOptions'],
  sources: [V017_SOURCE],
};

/** 0.1.7-rc.1: the gate is read in source; whether its settings service still registers namespaces is not. */
const v017rc1: Row = {
  ...v017alpha,
  hasCompatibilityGate: true,
  unconfirmed: ['liveOptions'],
  sources: [V017_SOURCE],
};

/** 0.1.7-rc.2: `ctx.settings.register` is gone; live options are the row Config's volatile fields. */
const v017: Row = {
  ...v017rc1,
  liveOptions: 'volatile-config',
  unconfirmed: [],
  sources: [V017_SOURCE, V017RC2_SETTINGS_SOURCE],
};

const v020: Row = {
  ...v017,
  settingsForm: 'ConfigForm',
  // Live options as on 0.1.7-rc.2: the 0.2.x pages read `configForms.get(id)`, the server half was not read again.
  unconfirmed: ['presentationModes', 'liveOptions'],
  sources: [V017_SOURCE, V017RC2_SETTINGS_SOURCE, V021_SOURCE, CODEMODE_SOURCE],
};

const v021: Row = {
  ...v020,
  presentationModes: ['native', 'ptc'],
  optionsSeat: 'plugins.row.config',
  unconfirmed: ['liveOptions'],
  sources: [V021_SOURCE, V017RC2_SETTINGS_SOURCE, CODEMODE_SOURCE],
};

const TABLE: Readonly<Record<DshRelease, Row>> = {
  '0.1.0-rc.8': rc8,
  '0.1.1-rc.2': rc2,
  '0.1.5-rc.1': v015,
  '0.1.5-rc.2': v015,
  '0.1.5-rc.3': v015,
  '0.1.6-alpha.2': v016,
  '0.1.7-alpha.1': v017alpha,
  '0.1.7-alpha.2': v017alpha,
  '0.1.7-rc.1': v017rc1,
  '0.1.7-rc.2': v017,
  '0.2.0-rc.1': v020,
  '0.2.0-rc.2': v020,
  '0.2.1-alpha.1': { ...v021, unconfirmed: ['presentationModes', 'liveOptions'] },
  '0.2.1-alpha.2': v021,
};

/** True when `version` is one of `DSH_RELEASES`. */
export function isKnownRelease(version: string): version is DshRelease {
  return Object.hasOwn(TABLE, version);
}

/**
 * The nearest known release: the newest one not newer than `version` (prereleases ordered as semver orders them),
 * or the oldest known one for a version older than all of them.
 */
function nearestRelease(version: string): DshRelease {
  let nearest: DshRelease = DSH_RELEASES[0];
  for (const release of DSH_RELEASES) if (semver.lte(release, version)) nearest = release;
  return nearest;
}

/**
 * What the code assumes of DSH `version`: its row when it is a known release, else the nearest known release's facts
 * with `known: false` and a `note` saying so (rc.8's boot workarounds stay rc.8's: never assumed for another version).
 * Undefined when `version` is not a semantic version.
 */
export function releaseFacts(version: string): ReleaseFacts | undefined {
  if (typeof version !== 'string' || version.length > 256 || semver.valid(version) === null) return undefined;
  if (isKnownRelease(version)) return { version, known: true, basis: version, ...TABLE[version] };
  const basis = nearestRelease(version);
  const row = TABLE[basis];
  return {
    version,
    known: false,
    basis,
    note: `DSH ${version} is not a release this profile knows; the facts of the nearest known release, ${basis}, are assumed`,
    ...row,
    needsRc8Workarounds: false,
    unconfirmed: [...new Set<keyof ReleaseFacts>([...row.unconfirmed, 'codeModeName', 'logFormat', 'subCalls'])],
  };
}

/** Code Mode's name on DSH `version` (the nearest known release's for an unknown version); rc.8's for a non-version. */
export function codeModeNameFor(version: string | undefined): CodeModeName {
  return (version === undefined ? undefined : releaseFacts(version))?.codeModeName ?? TABLE[DSH_LIVE].codeModeName;
}

/** Entry of the published plugin `dsh-tool-normalizer`: the dsh-adapter plugin, re-exported (bundled by build.mjs). */
export { apply, Config, inject, name } from '@dsh-tool-normalizer/dsh-adapter';
export type { ToolNormalizerConfig } from '@dsh-tool-normalizer/dsh-adapter';

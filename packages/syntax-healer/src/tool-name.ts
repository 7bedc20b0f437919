/**
 * The name of DSH's Code-Mode transport tool, in a module of its own that imports nothing: packages that need
 * only the name (core-rules' tool lookups) do not pull Babel's parser into a bundle with it.
 */
export const RUN_CODE = 'run_code';

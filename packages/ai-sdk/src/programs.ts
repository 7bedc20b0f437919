/**
 * The `programs` entry (`@dsh-tool-normalizer/ai-sdk/programs`): the syntax healer for tools that take a
 * program. Importing it is what brings Babel's parser into your bundle; the main entry never does.
 */
export { healProgram } from '@dsh-tool-normalizer/syntax-healer';

/**
 * The host profile's `llm/stream` facts the stream seam acts on, checked against the installed rc.8 packages: the
 * empty-response code, the Code-Mode tool, and the three BlockAssembler rules (a block-end replaces what streamed,
 * a block-end for an index never opened adds the block, a max-tokens finish drops tool calls).
 */
import { BlockAssembler, EMPTY_RESPONSE_CODE, type StreamChunk } from '@deepseek-ai/dsh-llm';
import { RUN_CODE } from '@dsh-tool-normalizer/core-rules';
import {
  CODE_MODE_TOOL,
  CONTENT_BLOCK,
  EMPTY_RESPONSE,
  FINISH_KIND,
  presentationModeOf,
  STREAM_CHUNK,
} from '@dsh-tool-normalizer/dsh-profile';
import { describe, expect, it } from 'vitest';

const assemble = (chunks: StreamChunk[]) => {
  const assembler = new BlockAssembler();
  for (const chunk of chunks) assembler.push(chunk);
  return assembler;
};

describe('the host profile matches rc.8', () => {
  it('names the empty-response failure and the Code-Mode tool as the host does', () => {
    expect(EMPTY_RESPONSE.code).toBe(EMPTY_RESPONSE_CODE);
    expect(CODE_MODE_TOOL).toBe(RUN_CODE);
    expect(presentationModeOf([{ name: 'run_code' }])).toBe('code');
    expect(presentationModeOf([{ name: 'run_code' }, { name: 'read' }])).toBe('both');
    expect(presentationModeOf([{ name: 'read' }])).toBe('native');
  });

  it('a block-end replaces the streamed text, and one for an unseen index adds its block', () => {
    const call = { type: CONTENT_BLOCK.toolCall, id: 'c1', name: 'read', arguments: '{}' } as const;
    const assembler = assemble([
      { type: STREAM_CHUNK.blockStart, index: 0, blockType: CONTENT_BLOCK.text },
      { type: STREAM_CHUNK.textDelta, index: 0, text: 'markup' },
      { type: STREAM_CHUNK.blockEnd, index: 0, block: { type: CONTENT_BLOCK.text, text: '' } },
      { type: STREAM_CHUNK.blockEnd, index: 1, block: call as never },
      { type: STREAM_CHUNK.finish, reason: { kind: FINISH_KIND.toolCalls } },
    ]);
    expect(assembler.blocks()).toEqual([{ type: 'text', text: '' }, call]);
  });

  it('a max-tokens finish drops tool calls (the seam never adds calls under it)', () => {
    const assembler = assemble([
      {
        type: STREAM_CHUNK.blockEnd,
        index: 0,
        block: { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' } as never,
      },
      { type: STREAM_CHUNK.finish, reason: { kind: FINISH_KIND.maxTokens } },
    ]);
    expect(assembler.blocks()).toEqual([]);
  });
});

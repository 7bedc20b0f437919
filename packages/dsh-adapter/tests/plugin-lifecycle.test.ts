/**
 * The plugin's life in a real cordis Context with the real DSH tool runtime: it loads with defaults, rejects an
 * invalid config naming the option and the expected type, registers its prompt section, and disposing it leaves
 * no listener, section or route behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Context } from '@deepseek-ai/cordis';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import * as plugin from '../src/index.js';
import { bootHost, type Host } from './support/composition.js';

const HOOKS = ['llm/stream', 'tools/execute', 'tools/post-execute', 'tools/result'] as const;

function listenerCounts(ctx: Context): Record<string, number> {
  const hooks = (ctx.events as unknown as { _hooks: Record<string, unknown[] | undefined> })._hooks;
  return Object.fromEntries(HOOKS.map((hook) => [hook, hooks[hook]?.length ?? 0]));
}

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

describe('plugin exports', () => {
  it('has the named exports the DSH loader reads', () => {
    expect(plugin.name).toBe('tool-normalizer');
    expect(plugin.inject).toEqual(['tools']);
    expect(typeof plugin.apply).toBe('function');
    expect(plugin.Config['~standard'].version).toBe(1);
  });
});

describe('plugin lifecycle in a real Context', () => {
  it('adds one listener per seam and a static prompt section, and removes all of them on dispose', async () => {
    host = await bootHost({ plugin: false });
    const before = listenerCounts(host.ctx);
    const fiber = await host.ctx.plugin(plugin, { logDir: host.logDir });
    const during = listenerCounts(host.ctx);
    for (const hook of HOOKS) expect(during[hook]).toBe((before[hook] ?? 0) + 1);
    const assembled = await host.ctx.systemPrompt.assemble();
    const section = assembled.sections.find((s) => s.name === plugin.PROMPT_SECTION_NAME);
    expect(section?.text).toBe(plugin.PROMPT_SECTION_TEXT);

    await fiber.dispose();
    expect(listenerCounts(host.ctx)).toEqual(before);
    const after = await host.ctx.systemPrompt.assemble();
    expect(after.sections.some((s) => s.name === plugin.PROMPT_SECTION_NAME)).toBe(false);
  });

  it('can be loaded again after a dispose (HMR reload) without a duplicate-section error', async () => {
    host = await bootHost({ plugin: false });
    const first = await host.ctx.plugin(plugin, { logDir: host.logDir });
    await first.dispose();
    const second = await host.ctx.plugin(plugin, { logDir: host.logDir });
    expect(second.uid).not.toBeNull();
    const assembled = await host.ctx.systemPrompt.assemble();
    expect(assembled.sections.filter((s) => s.name === plugin.PROMPT_SECTION_NAME)).toHaveLength(1);
    await second.dispose();
  });

  it('does not register the prompt section when injectPrompt is false', async () => {
    host = await bootHost({ plugin: { injectPrompt: false } });
    const assembled = await host.ctx.systemPrompt.assemble();
    expect(assembled.sections.some((s) => s.name === plugin.PROMPT_SECTION_NAME)).toBe(false);
  });

  it('loads without a web server (headless composition): no routes, no error', async () => {
    const ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
    const fiber = await ctx.plugin(plugin, { logDir: '/nonexistent-dir-for-tool-normalizer/sub' });
    expect(fiber.uid).not.toBeNull();
    expect(ctx.get('webServer')).toBeUndefined();
    await fiber.dispose();
  });
});

describe('config validation at load', () => {
  it('fails plugin load with a message naming the option and the expected type', async () => {
    const ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
    const fiber = ctx.plugin(plugin, { autoWrapRunCode: 'yes' } as never);
    await expect(fiber.then(() => 'loaded')).rejects.toThrow(
      /option "autoWrapRunCode" must be a boolean, got string "yes"/,
    );
    expect(listenerCounts(ctx)['tools/execute']).toBe(0);
  });

  it('fails plugin load on an allowedHosts entry that is not a bare host name', async () => {
    const ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
    const fiber = ctx.plugin(plugin, { allowedHosts: ['http://dsh.lan:5173'] } as never);
    await expect(fiber.then(() => 'loaded')).rejects.toThrow(
      /option "allowedHosts" must be an array of host names .*got array \["http:\/\/dsh.lan:5173"\]/,
    );
    expect(listenerCounts(ctx)['tools/execute']).toBe(0);
  });
});

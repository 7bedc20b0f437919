/** The config's defaults (the seed plugin's names and values) and its errors (option name + expected type). */
import { describe, expect, it } from 'vitest';
import { Config, resolveConfig, validateConfig } from '../src/index.js';

describe('validateConfig', () => {
  it('fills the seed defaults', () => {
    const result = validateConfig(undefined);
    expect(result.issues).toBeUndefined();
    expect(result).toMatchObject({
      value: {
        autoWrapRunCode: true,
        autoBridgeDirectTools: true,
        autoObserveFiles: true,
        autoClampRanges: true,
        injectPrompt: true,
        errorHints: true,
        trimStackTraces: true,
        persistPassthrough: false,
        logDir: '',
        allowedHosts: [],
      },
    });
  });

  it('keeps given values and does not mutate the input', () => {
    const input = Object.freeze({ errorHints: false, maxLogBytes: 70000 });
    const result = resolveConfig(input);
    expect(result.errorHints).toBe(false);
    expect(result.maxLogBytes).toBe(70000);
    expect(result.autoWrapRunCode).toBe(true);
    expect(input).toEqual({ errorHints: false, maxLogBytes: 70000 });
  });

  it.each([
    [{ autoObserveFiles: 1 }, /option "autoObserveFiles" must be a boolean, got number 1/],
    [{ maxLogBytes: 'big' }, /option "maxLogBytes" must be an integer >= 65536, got string "big"/],
    [{ maxLogBytes: 10 }, /option "maxLogBytes" must be an integer >= 65536, got number 10/],
    [{ logDir: ['x'] }, /option "logDir" must be a string, got array/],
    [{ autoWrapRunCod: true }, /unknown option "autoWrapRunCod"/],
    [{ allowedHosts: 'dsh.lan' }, /option "allowedHosts" must be an array of host names .*, got string "dsh.lan"/],
    [{ allowedHosts: [42] }, /option "allowedHosts" must be an array of host names .*, got array \[42\]/],
    [
      { allowedHosts: ['http://dsh.lan:5173'] },
      /option "allowedHosts" must be an array of host names \(strings like "dsh.lan": no scheme, port, path or wildcard\)/,
    ],
    [{ allowedHosts: [''] }, /option "allowedHosts" must be an array of host names/],
    ['yes', /config must be an object, got string/],
  ])('rejects %j', (input, message) => {
    const result = Config['~standard'].validate(input);
    expect(result.issues?.[0]?.message).toMatch(message);
    expect(() => resolveConfig(input)).toThrow(message);
  });
});

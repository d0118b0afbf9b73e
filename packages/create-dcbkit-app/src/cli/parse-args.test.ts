import { describe, expect, it } from 'vitest';
import { CreateAppError } from '../errors/create-app-error.js';
import { parseCliArgs } from './parse-args.js';

describe('parseCliArgs', () => {
  it('takes the folder, and Express unless --framework says otherwise', () => {
    expect(parseCliArgs(['my-shop'])).toEqual({
      dir: 'my-shop',
      framework: 'express',
      force: false,
      workspace: false,
      name: undefined,
    });
    expect(parseCliArgs(['my-shop', '--framework', 'koa', '--force', '--name', 'shop'])).toMatchObject({
      framework: 'koa',
      force: true,
      name: 'shop',
    });
    expect(parseCliArgs(['--help'])).toBe('help');
    expect(parseCliArgs(['--version'])).toBe('version');
  });

  it('refuses a missing folder, two folders or an unknown flag, as a usage error', () => {
    for (const argv of [[], ['a', 'b'], ['a', '--verbose'], ['a', '--framework']]) {
      expect(() => parseCliArgs(argv)).toThrow(CreateAppError);
      try {
        parseCliArgs(argv);
      } catch (error) {
        expect((error as CreateAppError).code).toBe('invalid_command_line');
        expect((error as CreateAppError).exitCode).toBe(2);
      }
    }
  });
});

import { readFileSync } from 'node:fs';
import { DCB_ENV_VARIABLES } from '@dcbkit/core';
import { describe, expect, it } from 'vitest';
import { SHOP_ENV_VARIABLES } from './config.js';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
/** Every variable the shop reads: its own and dcbkit's. */
const VARIABLES = [...Object.keys(SHOP_ENV_VARIABLES), ...Object.keys(DCB_ENV_VARIABLES)].sort();

describe('the variables a partner is told about', () => {
  it('.env.example lists every variable the shop reads, and no other', () => {
    // `NAME=value`, or commented out (`# NAME=value`) for an optional one.
    const listed = [...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name);
    expect([...new Set(listed)].sort()).toEqual(VARIABLES);
  });

  it('the README has a row for each of them', () => {
    const table = read('README.md');
    const missing = VARIABLES.filter((name) => !new RegExp(`^\\| [^|]*\`${name}\``, 'm').test(table));
    expect(missing).toEqual([]);
  });
});

// `pnpm generate:starters`: writes starters/express and starters/koa from the templates, in
// workspace mode. Run it after changing packages/create-dcbkit-app/templates; the starters are its
// output, committed so that they stay browsable, and starters.test.ts fails when they differ.
import { findRepository } from '../app/dcbkit-packages.js';
import { generateStarters } from './starters.js';

const repository = findRepository();
if (repository === undefined) {
  console.error('generate:starters runs inside the dcbkit repository only.');
  process.exit(1);
}
for (const dir of generateStarters(repository)) console.log(`wrote ${dir}`);

import { relative } from 'node:path';
import type { CreatedApp } from './create-app.js';
import { TARBALL_FOLDER } from './dcbkit-packages.js';

/** What the CLI prints once the app is written: what it is, where its packages come from, what to type next. */
export function nextSteps({ dir, framework, source }: CreatedApp, cwd: string): string {
  const where = relative(cwd, dir) || '.';
  const packages = {
    local: `dcbkit packages: packed from this repository into ${TARBALL_FOLDER}/ (local packages mode: installs offline, no registry needed for them)`,
    registry: `dcbkit packages: from the npm registry (registry mode: ${
      source.kind === 'registry' ? Object.values(source.ranges)[0] : ''
    })`,
    workspace: 'dcbkit packages: workspace:^ (workspace mode: run pnpm install at the repository root)',
  }[source.kind];
  const install = source.kind === 'workspace' ? [] : ['  npm install'];
  return [
    `Created a dcbkit shop on ${framework.title} in ${dir}`,
    `  ${packages}`,
    '',
    'Next:',
    `  cd ${where}`,
    ...install,
    '  npm start        # the embedded sandbox: no variable to set, no money moves',
    '  npm test',
    '',
    'README.md says how to run it against the standalone sandbox (npx dcbkit-sandbox) and go live.',
  ].join('\n');
}

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm test`: the tests beside the code (src/**/*.test.ts). Several start the shop on its
// embedded sandbox, or spawn `npm start` itself: hence the longer timeouts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // One PGlite folder made for the run, copied by the tests that start the shop on the service.
    globalSetup: ['src/test-support/migrated-data-folder-setup.ts'],
    // Most of a file's time is waiting on a child process or a sandbox, so two files run at once
    // even on two cores (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The files share their worker's modules instead of importing the app anew each: that import
    // was half of `npm test`. No test here mocks a module or changes the environment; one that
    // does must undo it in its own afterAll.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

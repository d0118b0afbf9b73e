import { defineConfig } from 'vitest/config';

// `npm test`: the tests beside the code (src/**/*.test.ts). Several start the shop on its
// embedded sandbox, or spawn `npm start` itself: hence the longer timeouts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

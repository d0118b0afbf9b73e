import { whenStopAsked } from './stop-signal.js';

// `npm start` (`pnpm start` at the dcbkit repository's root). Ctrl+C is listened for before anything
// else loads: the shop's modules take seconds to load on a first run, and a Ctrl+C then is a clean
// stop too (stop-signal.ts says why it matters).
const stopAsked = whenStopAsked();
const { serve } = await import('./serve.js');
await serve(stopAsked);

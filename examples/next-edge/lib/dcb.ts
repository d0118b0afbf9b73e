// The kit for the Node runtime's routes (checkout, return page), made at the first request that
// needs it: `next build` imports this module without any DCB_* variable set, and nothing here
// reads them until then.
import { configFromEnv, createDcbKit } from '@dcbkit/core';
import { createNextHandlers } from '@dcbkit/next';
import { signedInAccount } from './account';
import { offers } from './offers';

export const dcb = createNextHandlers({
  // DCB_RETURN_URL names the return page (app/billing/return).
  kit: () => createDcbKit({ ...configFromEnv(process.env), offers }),
  signedInAccount,
});

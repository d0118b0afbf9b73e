// POST /billing/checkout, on the Node runtime (the default: the kit's routes use node's crypto).
// A form posts `offerUid` and its form token; a script posts JSON with `offerUid` and a `nonce`.
import { dcb } from '../../../lib/dcb';

export const POST = dcb.checkout();

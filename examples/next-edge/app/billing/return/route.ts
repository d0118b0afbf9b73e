// GET /billing/return: where the checkout sends the subscriber back; the payment is read from the
// service, never trusted from the URL. Node runtime.
import { dcb } from '../../../lib/dcb';

export const GET = dcb.returnPage();

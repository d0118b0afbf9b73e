import type { DcbKit } from '@dcbkit/core';
import { linesPayingTwice } from '../line-pays-twice.js';
import { opsFrame } from '../ops/ops-pages.js';
import type { Views } from '../views.js';
import type { ShopAnswer } from '../web/shop-answer.js';
import type { ShopRequest } from '../web/shop-request.js';
import { operatorIdOfRequest } from './ops-auth.js';

/** Renders a page of the operations view for the signed-in operator, inside its frame. */
export type OpsRender = (request: ShopRequest, template: string, data: object) => Promise<ShopAnswer>;

export function opsRender(kit: DcbKit, views: Views): OpsRender {
  // Every page of a signed-in operator names the lines that pay twice (from the store, so every instance agrees).
  return async (request, template, data) =>
    views.render(request, template, {
      ...opsFrame(kit, operatorIdOfRequest(request) ?? ''),
      linesPayingTwice: await linesPayingTwice(kit),
      ...data,
    });
}

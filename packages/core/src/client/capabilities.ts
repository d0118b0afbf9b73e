import * as z from 'zod';
import {
  type Capabilities,
  type CapabilitiesQuery,
  capabilitiesQuerySchema,
  capabilitiesSchema,
} from '../schemas/capabilities.js';
import { checkInput } from './check-input.js';
import { checkRequestOptions, type RequestOptions } from './client-options.js';
import { apiRequest, envelopeData, type SendAuthenticated } from './resource-request.js';

export interface CapabilitiesApi {
  /**
   * `GET /v1/capabilities`: what each operator of a country supports (consent methods,
   * instruments). Always a list: one entry when `operator` narrows it (docs/spec-gaps.md).
   *
   * @example
   * const [orange] = await client.capabilities.retrieve({ countryCode: 'TN', operator: 'ORANGE_TN' });
   */
  retrieve(query: CapabilitiesQuery, options?: RequestOptions): Promise<Capabilities[]>;
}

// "data is the Capabilities object", yet `operator` "narrows the answer": read one or several.
const capabilitiesData = /* @__PURE__ */ (() =>
  envelopeData(z.union([capabilitiesSchema.transform((one) => [one]), z.array(capabilitiesSchema)])))();

export function createCapabilitiesApi(send: SendAuthenticated): CapabilitiesApi {
  return {
    async retrieve(query, options) {
      const checked = checkInput(capabilitiesQuerySchema, query, {
        method: 'GET',
        path: '/v1/capabilities',
        name: '',
      });
      const search = new URLSearchParams({ countryCode: checked.countryCode });
      if (checked.operator !== undefined) search.set('operator', checked.operator);
      return send(
        apiRequest({ method: 'GET', target: `/v1/capabilities?${search}` }, capabilitiesData),
        checkRequestOptions(options),
      );
    },
  };
}

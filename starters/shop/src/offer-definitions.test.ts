import { defineOffers } from '@dcbkit/core';
import { defaultSandboxConfig, offerDefinitionsOf } from '@dcbkit/sandbox';
import { describe, expect, it } from 'vitest';
import { OFFERS } from './offer-definitions.js';

describe('the shop offers', () => {
  it('are what the embedded sandbox sells', () => {
    expect(defineOffers(OFFERS).list).toEqual(defineOffers(offerDefinitionsOf(defaultSandboxConfig())).list);
  });
});

// What the example's shop sells: the kit's worker and the deadline probe grant from it.
export const offers = [
  {
    offerUid: 'credits_10',
    productUid: 'credits',
    name: '10 credits',
    type: 'CONSUMABLE' as const,
    price: { amount: 2000, currency: 'TND' },
  },
];

// The shop's offers, as the service's console lists them (the sandbox's default ones here): plain
// data, imported by the Node routes' kit and by the Edge webhook alike.
export const offers = [
  {
    offerUid: 'offer_day_pass',
    productUid: 'prod_day_pass',
    name: 'Day pass',
    type: 'CONSUMABLE' as const,
    price: { amount: 1000, currency: 'TND' },
  },
];

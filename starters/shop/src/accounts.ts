/**
 * The demo accounts of the sign-in page. A real shop has its own users: what matters to dcbkit is
 * only that each has a stable id, which the kit writes into the payment's metadata at checkout
 * and reads back as the entitlement's account key.
 */
export interface DemoAccount {
  id: string;
  name: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { id: 'demo-amira', name: 'Amira' },
  { id: 'demo-youssef', name: 'Youssef' },
  { id: 'demo-lea', name: 'Léa' },
];

export function findDemoAccount(id: unknown): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((account) => account.id === id);
}

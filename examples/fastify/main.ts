// The Fastify example on the embedded sandbox: no account, no money, one process.
//
//   node --conditions=@dcbkit/source --import tsx examples/fastify/main.ts
//
// then open http://127.0.0.1:3000 (PORT to change it). The condition runs the packages from their
// sources; after `pnpm build`, `npx tsx examples/fastify/main.ts` runs them from dist/.
import { startShop } from './start-shop.js';

const shop = await startShop({ port: Number(process.env.PORT ?? 3000) });
console.log(`Fastify shop on ${shop.url}`);
console.log(`The PIN the checkout texts is in the sandbox's inbox: ${shop.sandbox.apiBaseUrl}/sandbox/sms`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void shop.close();
  });
}

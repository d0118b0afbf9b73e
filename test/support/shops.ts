import { createShopApp as createExpressApp } from '../../starters/shop/src/framework/express/create-shop-app.js';
import { createShopApp as createKoaApp } from '../../starters/shop/src/framework/koa/create-shop-app.js';
import { type StartShopOptions, startShop } from '../../starters/shop/src/start-shop.js';

/**
 * The shop template (starters/shop) on each of its frameworks, started side by side in one process:
 * `startShop` with the framework's part of the app. `folder` names the framework's overlay
 * (src/framework/<folder>/) and its screenshots' folder under artifacts/.
 */
export const SHOPS = [
  { name: 'Express', folder: 'express', createApp: createExpressApp },
  { name: 'Koa', folder: 'koa', createApp: createKoaApp },
].map(({ name, folder, createApp }) => ({
  name,
  folder,
  startShop: (options: Omit<StartShopOptions, 'createApp'>) => startShop({ ...options, createApp }),
}));

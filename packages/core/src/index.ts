export * from './client/index.js';
export * from './entitlements/index.js';
export * from './node/index.js';
export * from './routes/index.js';
export * from './schemas/index.js';
export * from './webhooks/index.js';

# workerd's configuration for the example: run.mjs bundles src/*.ts into dist/ first, and sets each
# socket's address (--socket-addr) and DCB_WEBHOOK_SECRET.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "webhook", worker = .webhookWorker),
    (name = "webhook-nodejs-compat", worker = .webhookWorkerNodejsCompat),
    (name = "sync-probe", worker = .syncProbeWorker),
  ],
  sockets = [
    (name = "webhook", address = "127.0.0.1:8787", http = (), service = "webhook"),
    (name = "webhook-nodejs-compat", address = "127.0.0.1:8788", http = (), service = "webhook-nodejs-compat"),
    (name = "sync-probe", address = "127.0.0.1:8789", http = (), service = "sync-probe"),
  ],
);

# No nodejs_compat flag: Web Crypto and no node:crypto, as a Worker has by default.
const webhookWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "dist/worker.js")],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "DCB_WEBHOOK_SECRET", fromEnvironment = "DCB_WEBHOOK_SECRET")],
);

# The same worker with nodejs_compat: workerd then has process.getBuiltinModule('node:crypto'),
# and verifyWebhookAsync uses it.
const webhookWorkerNodejsCompat :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "dist/worker.js")],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
  bindings = [(name = "DCB_WEBHOOK_SECRET", fromEnvironment = "DCB_WEBHOOK_SECRET")],
);

const syncProbeWorker :Workerd.Worker = (
  modules = [(name = "sync-probe.js", esModule = embed "dist/sync-probe.js")],
  compatibilityDate = "2025-09-01",
);

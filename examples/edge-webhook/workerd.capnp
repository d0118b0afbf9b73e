# workerd's configuration for the example: run.mjs bundles src/*.ts into dist/ first, and sets each
# socket's address (--socket-addr) and DCB_WEBHOOK_SECRET.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "webhook", worker = .webhookWorker),
    (name = "webhook-nodejs-compat", worker = .webhookWorkerNodejsCompat),
    (name = "sync-probe", worker = .syncProbeWorker),
    (name = "kit-webhook", worker = .kitWorker),
    (name = "kit-webhook-nodejs-compat", worker = .kitWorkerNodejsCompat),
    (name = "deadline-probe", worker = .deadlineProbeWorker),
  ],
  sockets = [
    (name = "webhook", address = "127.0.0.1:8787", http = (), service = "webhook"),
    (name = "webhook-nodejs-compat", address = "127.0.0.1:8788", http = (), service = "webhook-nodejs-compat"),
    (name = "sync-probe", address = "127.0.0.1:8789", http = (), service = "sync-probe"),
    (name = "kit-webhook", address = "127.0.0.1:8790", http = (), service = "kit-webhook"),
    (name = "kit-webhook-nodejs-compat", address = "127.0.0.1:8791", http = (), service = "kit-webhook-nodejs-compat"),
    (name = "deadline-probe", address = "127.0.0.1:8792", http = (), service = "deadline-probe"),
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

# The kit's whole receiver (handler, memory store and ledger, createFetchWebhook), without
# nodejs_compat: the handler verifies on Web Crypto, chosen by itself.
const kitWorker :Workerd.Worker = (
  modules = [(name = "kit-worker.js", esModule = embed "dist/kit-worker.js")],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "DCB_WEBHOOK_SECRET", fromEnvironment = "DCB_WEBHOOK_SECRET")],
);

# The same with nodejs_compat: the handler finds node's crypto and verifies synchronously on it.
const kitWorkerNodejsCompat :Workerd.Worker = (
  modules = [(name = "kit-worker.js", esModule = embed "dist/kit-worker.js")],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
  bindings = [(name = "DCB_WEBHOOK_SECRET", fromEnvironment = "DCB_WEBHOOK_SECRET")],
);

const deadlineProbeWorker :Workerd.Worker = (
  modules = [(name = "deadline-probe.js", esModule = embed "dist/deadline-probe.js")],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "DCB_WEBHOOK_SECRET", fromEnvironment = "DCB_WEBHOOK_SECRET")],
);

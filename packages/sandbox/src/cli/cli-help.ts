import { DEFAULT_PORT } from './parse-cli-args.js';

/** What --help prints: the flags, and the exit codes (cli/exit-codes.ts). */
export const CLI_HELP = `Usage: dcbkit-sandbox [--port ${DEFAULT_PORT}] [--production-port PORT+1] [--host 127.0.0.1]
                      [--config FILE] [--state FILE] [--webhook-url URL] [--production-webhook-url URL]
                      [--control-token TOKEN]

Runs a local emulator of the hosted carrier-billing service, in both environments: the sandbox
(svc_test_ credentials) and an emulated production (svc_live_ credentials, live once approved).
API, checkout host, mock operator (no money moves), signed webhooks. Open the printed dashboard URL
to pay for an offer in a browser.
  --port                    sandbox environment port (default: $PORT, else ${DEFAULT_PORT}; 0 picks a free one)
  --production-port         production environment port (default: the sandbox port + 1, or free with 0)
  --host                    address to listen on (default 127.0.0.1; 0.0.0.0 to reach it from a phone,
                            which needs a control token)
  --control-token           required on the control endpoints (/sandbox/…) (default:
                            $DCBKIT_SANDBOX_CONTROL_TOKEN); needed to listen beyond loopback
  --config                  a JSON config file (default: the built-in demo config); its JSON Schema is
                            @dcbkit/sandbox/config-schema.json
  --state                   keep payments, subscriptions, clock and events in this file across restarts
  --webhook-url             where to post every application's sandbox webhooks
  --production-webhook-url  where to post every application's production webhooks
  --version                 print the version

       dcbkit-sandbox check --app-url URL --webhook-secret SECRET --access-url TEMPLATE [--junit FILE]
Runs the partner check against your app, in any language (dcbkit-sandbox check --help).

Exit codes: 0 stopped cleanly, 1 failure, 2 usage error, 3 port in use, 4 config or state file error.`;

import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from './parse-cli-args.js';

/** The usage line, printed under a usage error too. */
export const CLI_USAGE = `Usage: dcbkit doctor <webhook-url> [--secret whsec_…] [--offer offerUid] [--timeout-ms ${DEFAULT_TIMEOUT_MS}] [--json]`;

/** What `dcbkit --help` and `dcbkit doctor --help` print: the flags and the exit codes (cli/exit-codes.ts). */
export const CLI_HELP = `${CLI_USAGE}

Sends signed probe deliveries to a deployed webhook route and says what to fix: a wrong secret, a
body re-serialised before verification, a skewed clock, slow or failing answers, a proxy that drops
the Service-Signature header, a receiver that accepts what it should refuse. Every probe carries the
event name dcbkit.probe, which dcbkit answers 200 "ignored" before its ledger and store, and which
any receiver that follows the spec ignores: a run changes no entitlement.
  --secret      the environment's webhook signing secret (default: $DCB_WEBHOOK_SECRET); several,
                comma-separated, as while rotating: the first signs the probes
  --offer       also check the checkout host: open a checkout for this offer with the app's DCB_*
                variables (DCB_ENV, DCB_API_BASE_URL, DCB_CLIENT_ID, DCB_CLIENT_SECRET), check its
                URL against DCB_CHECKOUT_BASE_URL as the kit's routes do, and cancel it at once
  --timeout-ms  how long each probe waits for its answer (default ${DEFAULT_TIMEOUT_MS}; ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS})
  --json        print the report as JSON
  -h, --help    this text
Exit codes: 0 healthy, 1 findings (or the doctor could not run), 2 usage error.`;

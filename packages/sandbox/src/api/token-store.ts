import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock/clock.js';
import type { EnvironmentName } from '../config/environment-config.js';
import { RetentionQueue } from '../retention/retention-queue.js';

/** The spec's token lifetime. */
export const TOKEN_LIFETIME_SECONDS = 3600;

/** What a bearer token stands for. Requests carry nothing else that says who is calling. */
export interface AccessGrant {
  clientId: string;
  environment: EnvironmentName;
  expiresAt: Date;
}

/** Token prefixes, so a token pasted into the wrong environment is easy to spot in a log. */
const TOKEN_PREFIX: Record<EnvironmentName, string> = { sandbox: 'sbx_at_', production: 'live_at_' };

/** Opaque bearer tokens of one environment, valid for an hour of sandbox time. */
export class TokenStore {
  private readonly grants = new Map<string, AccessGrant>();
  /** Tokens in issue order, which is expiry order: forgetting looks at the head only (see RetentionQueue). */
  private readonly issued = new RetentionQueue<string>(TOKEN_LIFETIME_SECONDS * 1000);

  constructor(
    private readonly clock: SandboxClock,
    private readonly environment: EnvironmentName = 'sandbox',
  ) {}

  issue(clientId: string): { accessToken: string; expiresIn: number } {
    this.forgetExpired();
    const accessToken = `${TOKEN_PREFIX[this.environment]}${randomBytes(24).toString('base64url')}`;
    const nowMs = this.clock.now().getTime();
    const expiresAt = new Date(nowMs + TOKEN_LIFETIME_SECONDS * 1000);
    this.grants.set(accessToken, { clientId, environment: this.environment, expiresAt });
    this.issued.add(accessToken, nowMs);
    return { accessToken, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  /** The grant of a live token, or undefined when the token is unknown or expired. */
  resolve(accessToken: string): AccessGrant | undefined {
    const grant = this.grants.get(accessToken);
    if (!grant) return undefined;
    if (grant.expiresAt.getTime() <= this.clock.now().getTime()) {
      this.grants.delete(accessToken);
      return undefined;
    }
    return grant;
  }

  /** Forgets expired tokens, O(1) each: never a walk over the map from its oldest end. */
  private forgetExpired(): void {
    this.issued.sweep(this.clock.now().getTime(), (token) => this.grants.delete(token));
  }
}

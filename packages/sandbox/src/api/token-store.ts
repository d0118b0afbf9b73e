import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock/clock.js';
import type { EnvironmentName } from '../config/environment-config.js';

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

  constructor(
    private readonly clock: SandboxClock,
    private readonly environment: EnvironmentName = 'sandbox',
  ) {}

  issue(clientId: string): { accessToken: string; expiresIn: number } {
    this.forgetExpired();
    const accessToken = `${TOKEN_PREFIX[this.environment]}${randomBytes(24).toString('base64url')}`;
    const expiresAt = new Date(this.clock.now().getTime() + TOKEN_LIFETIME_SECONDS * 1000);
    this.grants.set(accessToken, { clientId, environment: this.environment, expiresAt });
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

  /** Tokens sit in issue order, so expiry order: the walk stops at the first live one. */
  private forgetExpired(): void {
    const now = this.clock.now().getTime();
    for (const [token, grant] of this.grants) {
      if (grant.expiresAt.getTime() > now) return;
      this.grants.delete(token);
    }
  }
}

import type { DcbLogger } from '../observability/logger.js';

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

interface CachedToken {
  value: string;
  /** From here on, a call asks for a new token first. */
  renewAtMs: number;
  /** Past this, the token is never sent. */
  expiresAtMs: number;
}

/** Renew this long before expiry, at most: a minute for the spec's one-hour tokens. */
export const TOKEN_RENEWAL_MARGIN_MS = 60_000;

/**
 * The access token, cached until shortly before it expires. Callers that find no usable token
 * while one is being requested wait for that request instead of starting their own, so a burst
 * of calls makes a single token request.
 */
export class TokenCache {
  private current: CachedToken | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly requestToken: () => Promise<IssuedToken>,
    private readonly nowMs: () => number,
    private readonly logger: DcbLogger,
  ) {}

  /** A token to send now. Rejects with the token request's error when none could be had. */
  get(): Promise<string> {
    const current = this.current;
    if (current !== undefined && this.nowMs() < current.renewAtMs) return Promise.resolve(current.value);
    if (this.pending === undefined) {
      this.pending = this.renew(current).finally(() => {
        this.pending = undefined;
      });
    }
    return this.pending;
  }

  /**
   * Forgets `token` after the service refused it (ATH-002). Only that token: a newer one that
   * another call already fetched stays.
   */
  drop(token: string): void {
    if (this.current?.value === token) this.current = undefined;
  }

  private async renew(previous: CachedToken | undefined): Promise<string> {
    const requestedAtMs = this.nowMs();
    try {
      const issued = await this.requestToken();
      // Lifetime counted from the request, not the answer, so the cache never outlives the token.
      const lifetimeMs = issued.expiresInSeconds * 1000;
      const margin = Math.min(TOKEN_RENEWAL_MARGIN_MS, lifetimeMs / 10);
      this.current = {
        value: issued.accessToken,
        renewAtMs: requestedAtMs + lifetimeMs - margin,
        expiresAtMs: requestedAtMs + lifetimeMs,
      };
      this.logger.debug?.({ expiresInSeconds: issued.expiresInSeconds }, 'dcbkit: access token received');
      return issued.accessToken;
    } catch (error) {
      // Renewal starts early; while the old token is still valid, a failed renewal costs nothing.
      if (previous !== undefined && this.current === previous && this.nowMs() < previous.expiresAtMs) {
        this.logger.warn?.({ err: error }, 'dcbkit: token renewal failed; the current token is still valid');
        return previous.value;
      }
      throw error;
    }
  }
}

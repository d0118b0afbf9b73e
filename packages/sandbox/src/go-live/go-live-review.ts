import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SandboxError } from '../shared/sandbox-error.js';

/** Client credentials an application holds: its client ID and its secret. */
export interface ClientSecret {
  clientId: string;
  clientSecret: string;
}

/** What the review keeps of an issued secret, in memory and in the state file: its SHA-256 only. */
export interface IssuedSecret {
  clientId: string;
  /** Lowercase hex SHA-256 of the client secret. */
  secretSha256: string;
}

/**
 * The spec's "not live until approved" and "client credentials for production are issued only
 * after approval (a go-live review); the secret is displayed once". An application is live once
 * it holds a client secret: the sandbox environment's applications from the start (their secrets
 * are the config's), a production application when its review passes, which issues a random secret
 * and hands it out that one time. Only the secret's hash is kept, so nothing can show it again.
 */
export class GoLiveReview {
  private readonly issued = new Map<string, Buffer>();

  /** `live`: the applications live from the start, with the secrets they already hold. */
  constructor(live: Iterable<ClientSecret>) {
    for (const { clientId, clientSecret } of live) this.issued.set(clientId, sha256(clientSecret));
  }

  isLive(clientId: string): boolean {
    return this.issued.has(clientId);
  }

  /**
   * Passes the application's go-live review: issues its client secret and returns it, the only
   * time it is shown. Throws SandboxError `already_approved` for a live application (its secret was
   * shown when it was issued; the sandbox cannot show it again).
   */
  approve(clientId: string): string {
    if (this.isLive(clientId)) {
      throw new SandboxError(
        'already_approved',
        `Application ${clientId} is already live: its client secret was shown once, when its review passed.`,
      );
    }
    const clientSecret = `live_${randomBytes(24).toString('base64url')}`;
    this.issued.set(clientId, sha256(clientSecret));
    return clientSecret;
  }

  /** True when the secret is the one issued to this application; compared in constant time. */
  verify(clientId: string, clientSecret: string): boolean {
    const expected = this.issued.get(clientId);
    return expected !== undefined && timingSafeEqual(expected, sha256(clientSecret));
  }

  /** The issued secrets' hashes, for the state file. */
  list(): IssuedSecret[] {
    return [...this.issued].map(([clientId, hash]) => ({ clientId, secretSha256: hash.toString('hex') }));
  }

  /**
   * Takes back secrets issued in an earlier run, for applications not live now: an application
   * live from the start keeps the secret the config gives it, even if the config changed since.
   */
  restore(saved: Iterable<IssuedSecret>): void {
    for (const { clientId, secretSha256 } of saved) {
      if (!this.isLive(clientId)) this.issued.set(clientId, Buffer.from(secretSha256, 'hex'));
    }
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

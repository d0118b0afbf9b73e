import type { SandboxClock } from '../clock/clock.js';
import type { ApplicationConfig } from '../config/config-schema.js';
import { RequestRefusal } from '../refusals/refusals.js';

interface Window {
  startsAt: number;
  count: number;
}

/** A fixed window per application on the sandbox clock; the request over the limit gets SEC-001. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: SandboxClock) {}

  /** Counts one request; throws SEC-001 with the seconds until the window reopens when over the limit. */
  take(application: Pick<ApplicationConfig, 'clientId' | 'rateLimit'>): void {
    const { requests, windowSeconds } = application.rateLimit;
    const now = this.clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    let window = this.windows.get(application.clientId);
    if (!window || now >= window.startsAt + windowMs) {
      window = { startsAt: now, count: 0 };
      this.windows.set(application.clientId, window);
    }
    if (window.count >= requests) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.startsAt + windowMs - now) / 1000));
      throw new RequestRefusal(
        'SEC-001',
        `Rate limit of ${requests} requests per ${windowSeconds} s reached.`,
        {
          retryAfterSeconds,
        },
      );
    }
    window.count++;
  }
}

import { SandboxCheckoutError } from './checkout-error.js';
import type { ConfigView, PaymentControlView, SmsView } from './sandbox-config-view.js';

/** The sandbox's control endpoints (/sandbox/…) a checkout driver reads: no token needed. */
export interface SandboxControlClient {
  /** GETs (or sends `init`) and unwraps the envelope. Throws SandboxCheckoutError on an error. */
  request<T>(path: string, init?: RequestInit): Promise<T>;
  /** The sandbox's config, read once. */
  config(): Promise<ConfigView>;
  payment(paymentUid: string): Promise<PaymentControlView>;
  /** The PIN texted for a payment (the newest, after a resend). Throws when none was sent. */
  readPin: (paymentUid: string) => Promise<string>;
}

export function sandboxControlClient(base: string, fetchFn: typeof fetch): SandboxControlClient {
  let config: Promise<ConfigView> | undefined;
  const request = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetchFn(`${base}${path}`, init);
    const body = (await response.json().catch(() => undefined)) as
      | { success: true; data: T }
      | { success: false; error: { code: string; message: string } }
      | undefined;
    if (!response.ok || !body?.success) {
      const error = body && !body.success ? body.error : undefined;
      throw new SandboxCheckoutError(
        `${init?.method ?? 'GET'} ${base}${path} answered ${response.status}${error ? `: ${error.message}` : ''}`,
        error?.code,
      );
    }
    return body.data;
  };
  return {
    request,
    config: () => {
      config ??= request<ConfigView>('/sandbox/config');
      return config;
    },
    payment: (paymentUid) =>
      request<PaymentControlView>(`/sandbox/payments/${encodeURIComponent(paymentUid)}`),
    readPin: async (paymentUid) => {
      const messages = await request<SmsView[]>(`/sandbox/sms?paymentUid=${encodeURIComponent(paymentUid)}`);
      const pin = messages.find((message) => message.direction === 'MT')?.text.match(/^[0-9]+/)?.[0];
      if (pin === undefined) throw new SandboxCheckoutError(`No PIN was texted for ${paymentUid}.`);
      return pin;
    },
  };
}

import { randomBytes } from 'node:crypto';
import type { SandboxClock } from '../clock/clock.js';

/** An SMS the mock operator carried: MT to the subscriber (a PIN), MO from the subscriber (a keyword). */
export interface SmsMessage {
  id: string;
  direction: 'MT' | 'MO';
  from: string;
  to: string;
  text: string;
  sentAt: string;
  paymentUid: string;
}

/** Every SMS of the sandbox, readable at /sandbox/inbox (HTML) and /sandbox/sms (JSON). */
export class SmsInbox {
  private readonly messages: SmsMessage[] = [];

  constructor(
    private readonly clock: SandboxClock,
    private readonly log: (line: string) => void,
  ) {}

  record(message: Omit<SmsMessage, 'id' | 'sentAt'>): SmsMessage {
    const stored: SmsMessage = {
      id: `sms_${randomBytes(8).toString('hex')}`,
      sentAt: this.clock.now().toISOString(),
      ...message,
    };
    this.messages.push(stored);
    this.log(`SMS ${stored.direction} ${stored.from} -> ${stored.to}: ${stored.text}`);
    return stored;
  }

  /** Takes back messages from a state file, oldest first. */
  restore(messages: SmsMessage[]): void {
    this.messages.push(...messages);
  }

  /** Every message, oldest first, for the state file. */
  all(): readonly SmsMessage[] {
    return this.messages;
  }

  /** Newest first, optionally only those to or from one number or about one payment. */
  list(filter: { msisdn?: string; paymentUid?: string } = {}): SmsMessage[] {
    return this.messages
      .filter(
        (message) =>
          (filter.msisdn === undefined || message.to === filter.msisdn || message.from === filter.msisdn) &&
          (filter.paymentUid === undefined || message.paymentUid === filter.paymentUid),
      )
      .reverse();
  }
}

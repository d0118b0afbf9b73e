import { timingSafeEqual } from 'node:crypto';
import type { ApplicationConfig, OperatorConfig, SandboxConfig, SandboxOffer } from './config-schema.js';

/** Lookups over a validated config. */
export class Catalog {
  private readonly applications: Map<string, ApplicationConfig>;
  private readonly offers: Map<string, SandboxOffer>;
  private readonly operators: Map<string, OperatorConfig>;

  constructor(readonly config: SandboxConfig) {
    this.applications = new Map(config.applications.map((app) => [app.clientId, app]));
    this.offers = new Map(config.offers.map((offer) => [offer.offerUid, offer]));
    this.operators = new Map(config.operators.map((operator) => [operator.code, operator]));
  }

  application(clientId: string): ApplicationConfig | undefined {
    return this.applications.get(clientId);
  }

  /** The application these client credentials belong to, compared in constant time. */
  applicationByCredentials(clientId: string, clientSecret: string): ApplicationConfig | undefined {
    const application = this.applications.get(clientId);
    if (!application) return undefined;
    const expected = Buffer.from(application.clientSecret, 'utf8');
    const given = Buffer.from(clientSecret, 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given) ? application : undefined;
  }

  offer(offerUid: string): SandboxOffer | undefined {
    return this.offers.get(offerUid);
  }

  operator(code: string): OperatorConfig | undefined {
    return this.operators.get(code);
  }

  operatorsIn(countryCode: string): OperatorConfig[] {
    return this.config.operators.filter((operator) => operator.countryCode === countryCode);
  }

  offersFor(clientId: string): SandboxOffer[] {
    return this.config.offers.filter((offer) => offer.applications.includes(clientId));
  }
}

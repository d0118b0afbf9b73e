import type { OperatorConfig, SandboxOffer } from './config-schema.js';
import type { EnvironmentApplication, EnvironmentConfig } from './environment-config.js';

/** Lookups over one environment's validated config. Client secrets are the go-live review's to check. */
export class Catalog {
  private readonly applications: Map<string, EnvironmentApplication>;
  private readonly offers: Map<string, SandboxOffer>;
  private readonly operators: Map<string, OperatorConfig>;

  constructor(readonly config: EnvironmentConfig) {
    this.applications = new Map(config.applications.map((app) => [app.clientId, app]));
    this.offers = new Map(config.offers.map((offer) => [offer.offerUid, offer]));
    this.operators = new Map(config.operators.map((operator) => [operator.code, operator]));
  }

  application(clientId: string): EnvironmentApplication | undefined {
    return this.applications.get(clientId);
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

import { capabilitiesQuerySchema } from '@dcbkit/core/schemas';
import type { Catalog } from '../config/catalog.js';
import type { OperatorConfig } from '../config/config-schema.js';
import { type Reply, successReply } from '../http/reply.js';
import type { RouteRequest } from '../http/router.js';
import { ApiError } from '../shared/api-error.js';
import type { Capabilities } from '../shared/service-types.js';
import { type AuthenticationDeps, authenticate } from './authenticate.js';

/** The `operator` of an answer that covers every operator of the country. */
export const ALL_OPERATORS = '*';

/**
 * GET /v1/capabilities?countryCode=TN[&operator=CODE]. With an operator, that operator's
 * capabilities (SBR-104 when the country has no such operator); without, the union over the
 * country's operators, with `operator` set to "*".
 */
export function capabilitiesRoute(deps: AuthenticationDeps & { catalog: Catalog }) {
  return (request: RouteRequest): Reply => {
    authenticate(request, deps, 'capabilities');
    const query: Record<string, string> = {};
    // Only the spec's parameters are read; anything else in the query is ignored.
    for (const name of ['countryCode', 'operator']) {
      const values = request.url.searchParams.getAll(name);
      if (values.length > 1) throw new ApiError('VAL-002', `${name} must be given once.`);
      if (values[0] !== undefined) query[name] = values[0];
    }
    const parsed = capabilitiesQuerySchema.safeParse(query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      const missing = issue?.code === 'invalid_type' && query[path] === undefined;
      throw new ApiError(
        missing ? 'VAL-001' : 'VAL-002',
        `${path}: ${missing ? 'required' : (issue?.message ?? 'invalid')}`,
      );
    }
    const operators = deps.catalog.operatorsIn(parsed.data.countryCode);
    if (parsed.data.operator === undefined)
      return successReply(200, unionOf(parsed.data.countryCode, operators));
    const operator = operators.find((candidate) => candidate.code === parsed.data.operator);
    if (!operator) {
      throw new ApiError(
        'SBR-104',
        `Operator ${parsed.data.operator} is not supported in ${parsed.data.countryCode}.`,
      );
    }
    return successReply(200, capabilitiesOf(operator));
  };
}

function capabilitiesOf(operator: OperatorConfig): Capabilities {
  return {
    countryCode: operator.countryCode,
    operator: operator.code,
    modes: operator.modes,
    consentMethods: operator.consentMethods,
    operatorConsentPage: operator.operatorConsentPage,
    instruments: operator.instruments,
  };
}

function unionOf(countryCode: string, operators: OperatorConfig[]): Capabilities {
  const union = <T>(pick: (operator: OperatorConfig) => T[]): T[] => [...new Set(operators.flatMap(pick))];
  return {
    countryCode,
    operator: ALL_OPERATORS,
    modes: union((operator) => operator.modes),
    consentMethods: union((operator) => operator.consentMethods),
    operatorConsentPage: operators.some((operator) => operator.operatorConsentPage),
    instruments: union((operator) => operator.instruments),
  };
}

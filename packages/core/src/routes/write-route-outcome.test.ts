import { describe, expect, it } from 'vitest';
import type { HttpAnswer } from '../http/http-answer.js';
import { routeError } from './route-error.js';
import type { RouteView } from './route-result.js';
import type { PartnerRouteOutcome } from './run-route-request.js';
import { type RouteOutcomeWriters, writeRouteOutcome } from './write-route-outcome.js';

const answer: HttpAnswer = {
  status: 405,
  headers: { 'content-type': 'application/json', allow: 'POST' },
  body: '{}',
};
const view = { kind: 'checkout_embedded' } as RouteView;
const refusal = routeError('method_not_allowed', 'POST only.');

/** Writers that say which one ran and with what. */
function recording(given: { render?: boolean; renderError?: boolean } = {}): RouteOutcomeWriters<string> {
  return {
    render: given.render ? (seen) => `render ${seen.kind}` : undefined,
    renderError: given.renderError
      ? (seen, headers) => `renderError ${seen.code} ${JSON.stringify(headers)}`
      : undefined,
    answer: (seen) => `answer ${seen.status}`,
  };
}

describe('writeRouteOutcome', () => {
  it("gives a view to the app's render, and writes the answer when the app renders none", () => {
    const outcome: PartnerRouteOutcome = { answer: { ...answer, status: 200 }, view };
    expect(writeRouteOutcome(outcome, recording({ render: true }))).toBe('render checkout_embedded');
    expect(writeRouteOutcome(outcome, recording())).toBe('answer 200');
  });

  it("gives a refusal to the app's renderError with the refusal's headers, else writes the answer", () => {
    const outcome: PartnerRouteOutcome = { answer, refusal, refusalHeaders: { allow: 'POST' } };
    expect(writeRouteOutcome(outcome, recording({ renderError: true }))).toBe(
      'renderError method_not_allowed {"allow":"POST"}',
    );
    expect(writeRouteOutcome(outcome, recording({ render: true }))).toBe('answer 405');
  });

  it('hands renderError no headers, not undefined, when the refusal has none', () => {
    const outcome: PartnerRouteOutcome = { answer, refusal };
    expect(writeRouteOutcome(outcome, recording({ renderError: true }))).toBe(
      'renderError method_not_allowed {}',
    );
  });

  it('writes the answer of an outcome with neither a view nor a refusal, whatever the app renders', () => {
    const outcome: PartnerRouteOutcome = {
      answer: { status: 303, headers: { location: '/' }, body: undefined },
    };
    expect(writeRouteOutcome(outcome, recording({ render: true, renderError: true }))).toBe('answer 303');
  });
});

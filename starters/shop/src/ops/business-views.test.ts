import { describe, expect, it } from 'vitest';
import { BUSINESS_VIEWS, businessViewById } from './business-views.js';

describe('the Business page’s views', () => {
  it('have unique ids, each found by its CSV route', () => {
    const ids = BUSINESS_VIEWS.map((view) => view.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const view of BUSINESS_VIEWS) expect(businessViewById(view.id)).toBe(view);
    expect(businessViewById('nothing')).toBeUndefined();
  });
});

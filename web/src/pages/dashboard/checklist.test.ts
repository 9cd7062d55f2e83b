import { describe, expect, it } from 'vitest';
import { firstWeekChecklist, type ChecklistState } from './checklist';

const empty: ChecklistState = { buildings: [], holdings: [], reports: [] };
const done = (state: ChecklistState) => Object.fromEntries(firstWeekChecklist(state).map((step) => [step.id, step.done]));

describe('the first-week checklist', () => {
  it('starts with nothing done, every step pointing where to do it', () => {
    const steps = firstWeekChecklist(empty);
    expect(steps.map((step) => step.id)).toEqual(['farm', 'hire', 'recipe', 'mill', 'bakery', 'store', 'shelf', 'sale']);
    expect(steps.every((step) => !step.done)).toBe(true);
    expect(steps.find((step) => step.id === 'farm')?.to).toBe('/build');
  });

  it('ticks from the real state: a farm with one employee is built but not staffed; recipes count only once picked', () => {
    const state: ChecklistState = {
      ...empty,
      buildings: [
        { id: 7, type: 'farm', employees: 1, selected_recipe_id: null },
        { id: 8, type: 'mill', employees: 1, selected_recipe_id: null },
      ],
    };
    expect(done(state)).toMatchObject({ farm: true, hire: false, recipe: false, mill: false });
    expect(firstWeekChecklist(state).find((step) => step.id === 'recipe')?.to).toBe('/buildings/7');
    const staffed = {
      ...state,
      buildings: [
        { id: 7, type: 'farm', employees: 3, selected_recipe_id: 1 },
        { id: 8, type: 'mill', employees: 1, selected_recipe_id: 4 },
      ],
    };
    expect(done(staffed)).toMatchObject({ farm: true, hire: true, recipe: true, mill: true, bakery: false, store: false });
  });

  it('the shelf step holds once goods are on a shelf or sold; the sale step only after a week report with store revenue', () => {
    expect(done({ ...empty, holdings: [{ location: 'back_room' }] }).shelf).toBe(false);
    expect(done({ ...empty, holdings: [{ location: 'shelf' }] })).toMatchObject({ shelf: true, sale: false });
    const sold = {
      ...empty,
      reports: [
        { week: 3, store_revenue: 0 },
        { week: 4, store_revenue: 117 },
      ],
    };
    expect(done(sold)).toMatchObject({ shelf: true, sale: true });
    expect(firstWeekChecklist(sold).find((step) => step.id === 'sale')?.to).toBe('/reports/4');
    expect(done({ ...empty, reports: [{ week: 3, store_revenue: 0 }] }).sale).toBe(false);
  });
});

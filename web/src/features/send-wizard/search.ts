// The wizard's URL: the draft it edits (`draft`), the step on screen (`step`), a workspace to start in, and the
// flow just sent (`sent`). Pure TypeScript: the router imports validateWizardSearch.

export const WIZARD_STEPS = ['documents', 'recipients', 'fields', 'review'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export interface WizardSearch {
  draft?: string;
  step?: WizardStep;
  workspaceId?: string;
  sent?: string;
}

const ID_LIKE = /^[0-9A-Za-z-]{1,64}$/;

/** Only the known keys, only well-formed values (anything else is dropped, not an error). */
export function validateWizardSearch(search: Record<string, unknown>): WizardSearch {
  const result: WizardSearch = {};
  for (const key of ['draft', 'workspaceId', 'sent'] as const) {
    const value = search[key];
    if (typeof value === 'string' && ID_LIKE.test(value)) result[key] = value;
  }
  const step = search.step;
  if (typeof step === 'string' && (WIZARD_STEPS as readonly string[]).includes(step)) result.step = step as WizardStep;
  return result;
}

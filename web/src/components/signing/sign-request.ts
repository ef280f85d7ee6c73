// What the signing screen checks before signTask, and the request it sends. The server checks the same and answers
// with the codes of errors.json; checking here first points the user at the field at once.
import { missingFields, type SignerField } from './fields.ts';
import { type Placement, placementInputs } from './placement.ts';

/** What a signature type asks of the signer (listSignatureTypes). */
export interface TypeNeeds {
  requiresPin: boolean;
  requiredPlacement: 'seal' | 'handwritten' | null;
}

export interface SignDraft {
  signatureType: string | null;
  twoFactor: 'none' | 'sms' | 'email';
  needs: TypeNeeds | undefined;
  placements: Placement[];
  /** The fields the sender placed for this signer (none when the signer places everything). */
  fields?: SignerField[];
  pin: string;
  code: string;
  principalId: string;
  comment: string;
}

export type SignField = 'placements' | 'pin' | 'code' | 'principal';

/** A problem of one input, named by its catalogue key under `form.` of the signing catalogue. */
export interface SignProblem {
  field: SignField;
  key: 'fieldsRequired' | 'sealRequired' | 'handwrittenRequired' | 'pinRequired' | 'codeRequired' | 'principalRequired';
}

export const CODE_PATTERN = /^[0-9]{6}$/;

/** Every problem of the draft, in the order the fields appear on the screen. */
export function signProblems(draft: SignDraft): SignProblem[] {
  const problems: SignProblem[] = [];
  if (missingFields(draft.fields ?? [], draft.placements).length > 0) {
    problems.push({ field: 'placements', key: 'fieldsRequired' });
  }
  const placement = draft.needs?.requiredPlacement;
  if (placement && !draft.placements.some((p) => p.kind === placement)) {
    problems.push({ field: 'placements', key: placement === 'seal' ? 'sealRequired' : 'handwrittenRequired' });
  }
  if (draft.signatureType === 'proxy' && !draft.principalId) {
    problems.push({ field: 'principal', key: 'principalRequired' });
  }
  if (draft.needs?.requiresPin && draft.pin === '') problems.push({ field: 'pin', key: 'pinRequired' });
  if (draft.twoFactor !== 'none' && !CODE_PATTERN.test(draft.code.trim())) {
    problems.push({ field: 'code', key: 'codeRequired' });
  }
  return problems;
}

/** The attributes of signTask: only what the task's type and channel ask for. */
export function signAttributes(draft: SignDraft, lockVersion: number) {
  const comment = draft.comment.trim();
  return {
    lockVersion,
    ...(comment ? { comment } : {}),
    ...(draft.placements.length > 0 ? { placements: placementInputs(draft.placements) } : {}),
    ...(draft.twoFactor !== 'none' ? { code: draft.code.trim() } : {}),
    ...(draft.needs?.requiresPin ? { pin: draft.pin } : {}),
    ...(draft.signatureType === 'proxy' && draft.principalId ? { onBehalfOfUserId: draft.principalId } : {}),
  };
}

/** The field a server refusal belongs to, by its pointer (`/data/attributes/code` → code), if it is one of ours. */
export function fieldOfPointer(pointer: string | undefined): SignField | null {
  const name = /^\/data\/attributes\/(\w+)/.exec(pointer ?? '')?.[1];
  if (name === 'placements') return 'placements';
  if (name === 'pin') return 'pin';
  if (name === 'code') return 'code';
  if (name === 'onBehalfOfUserId') return 'principal';
  return null;
}

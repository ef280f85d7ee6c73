// What the guest's flow screen shows, in its own words: the contract's OneTime* shapes are read into these in one
// place (api/guest-flow.ts), so the screen's parts do not each follow the wire format.
import type { SignerField } from '../../components/signing/fields.ts';

export type GuestTaskType = 'sign' | 'approve' | 'read';

/** One of the guest's own tasks on a document. */
export interface GuestTask {
  id: string;
  type: GuestTaskType;
  status: string;
  order: number;
  signatureType: string | null;
  twoFactor: 'none' | 'sms' | 'email';
  /** The visible element the signature type cannot do without. */
  requiredPlacement: 'seal' | 'handwritten' | null;
  /** The fields the sender placed for the guest to fill (sign tasks). */
  fields: SignerField[];
  /** The guest may add placements of their own besides the fields. */
  allowSignerPlacements: boolean;
  lockVersion: number;
  /** True when the guest can run it now (its order has come). */
  runnable: boolean;
}

/** Another party's task on the same document: who and what state only. */
export interface OtherTask {
  order: number;
  type: GuestTaskType;
  status: string;
  who: string;
}

export interface GuestDocument {
  id: string;
  name: string;
  status: string;
  lockVersion: number;
  /** Changes whenever a new version (a signature) is stored, so the shown PDF is fetched again. */
  version: string;
  tasks: GuestTask[];
  otherTasks: OtherTask[];
  /** Complete: the signed PDF can be downloaded. */
  downloadable: boolean;
}

export interface GuestFlowView {
  id: string;
  name: string;
  status: string;
  organizationName: string;
  workspaceName: string;
  documents: GuestDocument[];
}

/** The guest's task to run on the document now, if any. */
export function runnableTask(document: GuestDocument): GuestTask | undefined {
  return document.tasks.find((task) => task.runnable);
}

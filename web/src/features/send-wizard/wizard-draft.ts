// The draft as the wizard holds it between steps, and how a reopened draft (?draft=) is read back from the API.
import { getDraftFlow, getDraftTasks } from './api/draft-flow.ts';
import { type FieldMap, fieldsOf, type Recipient, recipientsOf } from './wizard-state.ts';

export interface DraftDocument {
  id: string;
  name: string;
  /** The file as chosen in this browser (not kept after a reload: it is downloaded again for the fields step). */
  file?: File;
}

export interface Draft {
  flowId: string;
  name: string;
  workspaceId: string;
  workspaceName: string;
  lockVersion: number;
  documents: DraftDocument[];
  recipients: Recipient[];
  fields: FieldMap;
}

/** The draft flow, its documents, and the recipients and fields of their stored plans. */
export async function loadDraft(flowId: string): Promise<Draft> {
  const flow = await getDraftFlow(flowId);
  const documents = (flow.attributes.documents ?? []).map((d) => ({ id: d.id, name: d.name }));
  const plans = await Promise.all(documents.map((d) => getDraftTasks(d.id)));
  const first = plans.find((plan) => plan.data.length > 0);
  const recipients = first ? recipientsOf(first.data) : [];
  const fields: FieldMap = {};
  documents.forEach((d, index) => {
    fields[d.id] = fieldsOf(plans[index]?.data ?? [], recipients);
  });
  return {
    flowId,
    name: flow.attributes.name,
    workspaceId: flow.attributes.workspace.id,
    workspaceName: flow.attributes.workspace.name,
    lockVersion: flow.attributes.lockVersion,
    documents,
    recipients,
    fields,
  };
}

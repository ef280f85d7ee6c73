/*
 * The integration events core tells integrators of (webhooks): what each is called and what it carries. Payloads
 * hold ids, the owner organization's systemLinkIds and names of flows and documents, never personal data.
 */

/** Every integration event type, in the order the contract lists them. */
export const INTEGRATION_EVENT_TYPES = [
  'task.assigned',
  'task.executed',
  'document.remanded',
  'document.cancelled',
  'document.completed',
  'business_flow.completed',
  'business_flow.cancelled',
  'signature.created',
  'invitation.accepted',
] as const;

export type IntegrationEventType = (typeof INTEGRATION_EVENT_TYPES)[number];

/** A reference to a row of the workspace owner organization: its id and systemLinkId (null when none is set). */
export interface LinkedRef {
  id: string;
  systemLinkId: string | null;
}

/** One event as told to one organization. */
export interface IntegrationEvent {
  /** Names the event (the same for every organization told, and on a second telling). */
  id: string;
  type: IntegrationEventType;
  /** ISO 8601, when the change happened (service clock). */
  occurredAt: string;
  data: Record<string, unknown>;
}

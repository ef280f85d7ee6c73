/*
 * Delivery status notifications (RFC 3464): a bounce is a multipart/report whose message/delivery-status part holds
 * one block of per-message fields, then one block per recipient (Final-Recipient, Action, Status, ...), blocks
 * separated by blank lines. The mail plugin's POST /mail/bounces takes the raw report (the whole bounce message or
 * just its delivery-status part) and blocks each recipient whose Status is permanent (5.x.x).
 */
export interface RecipientStatus {
  /** The failed recipient's address (Final-Recipient, else Original-Recipient), without its address type. */
  recipient: string;
  /** The RFC 3463 status code, e.g. 5.1.1. */
  status: string;
  /** failed, delayed, delivered, relayed or expanded. */
  action: string | null;
  /** Whether the failure is permanent: Status class 5 (Action failed or not given). */
  permanent: boolean;
}

const STATUS = /^([245])\.\d{1,3}\.\d{1,3}$/;

/** Splits a header block into lower-cased field names and unfolded values. */
function fieldsOf(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/.exec(line);
    if (match) fields.set(match[1]!.toLowerCase(), match[2]!.trim());
  }
  return fields;
}

/** The address of an RFC 3464 recipient field ("rfc822; someone@example.jp"), or null. */
function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const [type, ...rest] = value.split(';');
  const address = (rest.length > 0 ? rest.join(';') : type!).trim().replace(/^<|>$/g, '');
  if (rest.length > 0 && type!.trim().toLowerCase() !== 'rfc822') return null;
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : null;
}

/** The per-recipient blocks of delivery-status text. */
export function recipientStatuses(text: string): RecipientStatus[] {
  const found: RecipientStatus[] = [];
  for (const block of text.split(/\r?\n[ \t]*\r?\n/)) {
    const fields = fieldsOf(block);
    const recipient = addressOf(fields.get('final-recipient')) ?? addressOf(fields.get('original-recipient'));
    const status = (fields.get('status') ?? '').split(/\s/)[0]!;
    if (!recipient || !STATUS.test(status)) continue;
    const action = fields.get('action')?.toLowerCase() ?? null;
    found.push({ recipient, status, action, permanent: status.startsWith('5.') && (!action || action === 'failed') });
  }
  return found;
}

/**
 * The recipients a report names: from its message/delivery-status parts when it is a whole message (decoded from
 * any transfer encoding), else from the text itself (a bare delivery-status body).
 */
export async function parseBounceReport(raw: string): Promise<RecipientStatus[]> {
  // mailparser (and its MIME and HTML dependencies) loads with the first bounce report, not at every start.
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  const parts = parsed.attachments
    .filter((a) => /^message\/(global-)?delivery-status$/i.test(a.contentType))
    .map((a) => a.content.toString('utf8'));
  const statuses = (parts.length > 0 ? parts : [raw]).flatMap(recipientStatuses);
  const seen = new Set<string>();
  return statuses.filter((s) => {
    const key = `${s.recipient.toLowerCase()}\n${s.status}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

import { clientIpv4, ipAllowed, normaliseIpv4Cidr } from '../../access/ip.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import type { RequestContext } from '../../http/context.ts';
import { AppError, type FieldError } from '../../http/errors.ts';

/** The most entries one organization may list. */
export const MAX_IP_RESTRICTIONS = 100;

interface Row {
  id: string;
  cidr: string;
  note: string;
  created_at: Date;
}

function listBody(rows: Row[], req: RequestContext) {
  return {
    data: rows.map((row) => ({
      type: 'IpRestriction' as const,
      id: row.id,
      attributes: { cidr: row.cidr, note: row.note, createdAt: row.created_at.toISOString() },
    })),
    meta: { callerIp: clientIpv4(req.ip)?.toString() ?? req.ip, maxEntries: MAX_IP_RESTRICTIONS },
  };
}

/**
 * Checks a replacement list: every entry an IPv4 address or CIDR, at most the maximum, and (unless it lifts the
 * restriction) one entry containing the caller's address, so nobody locks themselves out.
 */
export function validateIpList(entries: { cidr: string; note?: string }[], callerIp: string) {
  const problems: FieldError[] = [];
  const normalised = new Map<string, string>();
  entries.forEach((entry, index) => {
    const cidr = normaliseIpv4Cidr(entry.cidr);
    if (!cidr) problems.push({ code: 'IP_RESTRICTION_INVALID', pointer: `/data/${index}/attributes/cidr` });
    else if (!normalised.has(cidr)) normalised.set(cidr, entry.note ?? '');
  });
  if (problems.length > 0) throw AppError.invalid(problems);
  if (normalised.size > MAX_IP_RESTRICTIONS) {
    throw new AppError('IP_RESTRICTION_LIMIT', { pointer: '/data', params: { max: MAX_IP_RESTRICTIONS } });
  }
  if (normalised.size > 0 && !ipAllowed(callerIp, [...normalised.keys()])) {
    throw new AppError('IP_RESTRICTION_EXCLUDES_OWN_IP', { pointer: '/data', params: { ip: callerIp } });
  }
  return normalised;
}

export function ipRestrictionRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, oplog, clock } = deps;
  const gate = { feature: 'ipRestriction', permission: 'organization:manage' } as const;
  const list = (organizationId: string) =>
    knex('ip_restrictions')
      .where({ organization_id: organizationId })
      .orderBy('cidr')
      .select<Row[]>('id', 'cidr', 'note', 'created_at');

  api.operation('listIpRestrictions', gate, async ({ principal, req }) => ({
    body: listBody(await list(principal.organizationId), req),
  }));

  api.operation('replaceIpRestrictions', gate, async ({ principal, body, req }) => {
    const entries = validateIpList(
      body.data.map((item) => item.attributes),
      req.ip,
    );
    await knex.transaction(async (trx) => {
      const before = await trx('ip_restrictions')
        .where({ organization_id: principal.organizationId })
        .forUpdate()
        .pluck('cidr');
      await trx('ip_restrictions').where({ organization_id: principal.organizationId }).delete();
      const now = clock.now();
      if (entries.size > 0) {
        await trx('ip_restrictions').insert(
          [...entries].map(([cidr, note]) => ({
            organization_id: principal.organizationId,
            cidr,
            note,
            created_at: now,
          })),
        );
      }
      await oplog.append(trx, req, {
        action: 'organization.ip_restrictions_replaced',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: principal.organizationId,
        details: { before: before.sort(), after: [...entries.keys()].sort() },
      });
    });
    return { body: listBody(await list(principal.organizationId), req) };
  });
}

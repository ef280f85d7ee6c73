/*
 * The business flow search shared by listBusinessFlows (query string), searchBusinessFlows (JSON body) and the CSV
 * export: visibility through access.ts, the plain filters, and custom property conditions as EXISTS subqueries on
 * property_values (the (property_id, number_value / date_value / option_id) indexes serve them), all ANDed.
 * Days are Japan days (UTC+9 all year).
 */
import type { Knex } from 'knex';
import { INPUT_TYPES, SCOPES } from '../../contract/property-values.ts';
import type { Principal } from '../../http/context.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { likePattern } from '../../http/pagination.ts';
import { whereFlowVisible } from '../workspaces/access.ts';
import { flowsWithWorkspace } from './model.ts';

export interface PropertyCondition {
  propertyId: string;
  eq?: string | number;
  from?: string | number;
  to?: string | number;
  contains?: string;
  optionIds?: string[];
}

export interface FlowFilter {
  q?: string;
  systemLinkId?: string;
  status?: string[];
  workspaceId?: string;
  createdFrom?: string;
  createdTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
  completedFrom?: string;
  completedTo?: string;
  properties?: PropertyCondition[];
}

/** Builds the pointer of a filter field: `/filter/createdFrom` in a body, `/filter[createdFrom]` in a query. */
export type FilterPointer = (...path: (string | number)[]) => string;
export const bodyPointer: FilterPointer = (...path) => `/filter/${path.join('/')}`;
export const queryPointer: FilterPointer = (field) => `/filter[${field}]`;

/** The sort keys of the contract and their columns. */
export const FLOW_SORTABLE = {
  name: 'f.name',
  createdAt: 'f.created_at',
  updatedAt: 'f.updated_at',
  completedAt: 'f.completed_at',
  status: 'f.status',
};

/** The first instant of a Japan day. */
const dayStart = (day: string) => new Date(`${day}T00:00:00+09:00`);
/** The first instant after a Japan day. */
const dayEnd = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

const DATE_RANGES = [
  ['createdFrom', 'createdTo', 'f.created_at'],
  ['updatedFrom', 'updatedTo', 'f.updated_at'],
  ['completedFrom', 'completedTo', 'f.completed_at'],
] as const;

interface PropertyMeta {
  id: string;
  organization_id: string;
  input_type: number;
  scope: number;
  public_to_client: boolean;
}

/**
 * Validates the whole filter, collecting one problem per field, and returns a query of the visible matches
 * (wrapped: a query builder is thenable, so an async function must not resolve to one).
 */
export async function flowSearchScope(
  knex: Knex,
  principal: Principal,
  filter: FlowFilter,
  pointer: FilterPointer,
): Promise<{ scope: Knex.QueryBuilder }> {
  const problems: FieldError[] = [];
  for (const [from, to] of DATE_RANGES) {
    if (filter[from] && filter[to] && filter[from]! > filter[to]!) {
      problems.push({ code: 'SEARCH_RANGE_INVALID', pointer: pointer(from) });
    }
  }
  const conditions = await checkConditions(knex, principal, filter.properties ?? [], pointer, problems);
  if (problems.length > 0) throw AppError.invalid(problems);

  const scope = whereFlowVisible(knex, flowsWithWorkspace(knex), principal);
  if (filter.q?.trim()) {
    const pattern = likePattern(filter.q.trim());
    scope.where((w) => w.whereILike('f.name', pattern).orWhereILike('f.system_link_id', pattern));
  }
  // An ID for system link is unique within one organization: it names the caller's own flows, never a partner's.
  if (filter.systemLinkId !== undefined) {
    scope.where({ 'f.system_link_id': filter.systemLinkId, 'f.organization_id': principal.organizationId });
  }
  if (filter.status?.length) scope.whereIn('f.status', filter.status);
  // Drafts are listed only when asked for (the home screen's drafts); every other list leaves them out.
  else scope.whereRaw(`f.status <> 'draft'`);
  if (filter.workspaceId) scope.where('f.workspace_id', filter.workspaceId);
  for (const [from, to, column] of DATE_RANGES) {
    if (filter[from]) scope.where(column, '>=', dayStart(filter[from]!));
    if (filter[to]) scope.where(column, '<', dayEnd(filter[to]!));
  }
  for (const condition of conditions) scope.whereExists(condition(knex));
  return { scope };
}

type Subquery = (knex: Knex) => Knex.QueryBuilder;

/** Checks each property condition against its definition and returns the EXISTS subquery for each. */
async function checkConditions(
  knex: Knex,
  principal: Principal,
  conditions: PropertyCondition[],
  pointer: FilterPointer,
  problems: FieldError[],
): Promise<Subquery[]> {
  if (conditions.length === 0) return [];
  const properties = await searchableProperties(
    knex,
    principal,
    conditions.map((c) => c.propertyId),
  );
  const result: Subquery[] = [];
  conditions.forEach((condition, index) => {
    const at = (field: string) => pointer('properties', index, field);
    const property = properties.get(condition.propertyId);
    if (!property) {
      problems.push({ code: 'SEARCH_PROPERTY_INVALID', pointer: at('propertyId') });
      return;
    }
    const built = conditionFor(property.input_type, condition, at, problems);
    if (built) result.push((k) => built(valuesOf(k, property).select(k.raw('1')).where('pv.property_id', property.id)));
  });
  return result;
}

/**
 * The values a condition looks at: the flow's own for a flow-scope property; for a document-scope property, those of
 * the flow's documents that are not cancelled (a flow matches when one of its documents does: the values AI-OCR
 * read from a contract, say).
 */
function valuesOf(knex: Knex, property: PropertyMeta): Knex.QueryBuilder {
  if (Number(property.scope) === SCOPES.businessFlow) {
    return knex.from('property_values as pv').where('pv.target_type', 'business_flow').whereRaw('pv.target_id = f.id');
  }
  return knex
    .from('property_values as pv')
    .join('documents as sd', 'sd.id', 'pv.target_id')
    .where('pv.target_type', 'document')
    .whereRaw('sd.business_flow_id = f.id')
    .whereNot('sd.status', 'cancelled');
}

/**
 * Properties (flow and document scope) the caller may search by: their own organization's, and properties public
 * to clients of an organization whose workspace the caller's organization takes part in as a partner.
 */
async function searchableProperties(knex: Knex, principal: Principal, ids: string[]) {
  const rows = (await knex('custom_properties as p')
    .whereIn('p.id', ids)
    .where((w) =>
      w
        .where('p.organization_id', principal.organizationId)
        .orWhere((o) =>
          o
            .where('p.public_to_client', true)
            .whereExists(
              knex('workspace_participants as wp')
                .whereRaw('wp.organization_id = p.organization_id')
                .where('wp.partner_organization_id', principal.organizationId)
                .select(knex.raw('1')),
            ),
        ),
    )
    .select('p.id', 'p.organization_id', 'p.input_type', 'p.scope', 'p.public_to_client')) as PropertyMeta[];
  return new Map(rows.map((r) => [r.id, r]));
}

const KEYS_BY_TYPE: Record<number, (keyof PropertyCondition)[]> = {
  [INPUT_TYPES.string]: ['contains', 'eq'],
  [INPUT_TYPES.number]: ['eq', 'from', 'to'],
  [INPUT_TYPES.date]: ['eq', 'from', 'to'],
  [INPUT_TYPES.enum]: ['optionIds'],
};

/** A where-builder for one condition, or null (with problems pushed) when it does not fit the property's type. */
function conditionFor(
  inputType: number,
  condition: PropertyCondition,
  at: (field: string) => string,
  problems: FieldError[],
): ((q: Knex.QueryBuilder) => Knex.QueryBuilder) | null {
  const allowed = KEYS_BY_TYPE[inputType] ?? [];
  const given = (['eq', 'from', 'to', 'contains', 'optionIds'] as const).filter((k) => condition[k] !== undefined);
  const misfits = given.filter((k) => !allowed.includes(k));
  if (given.length === 0) problems.push({ code: 'SEARCH_PROPERTY_INVALID', pointer: at('propertyId') });
  for (const key of misfits) problems.push({ code: 'SEARCH_PROPERTY_INVALID', pointer: at(key) });
  if (given.length === 0 || misfits.length > 0) return null;

  if (inputType === INPUT_TYPES.string) {
    return (q) => {
      if (condition.contains !== undefined) q.whereILike('pv.text_value', likePattern(condition.contains));
      if (condition.eq !== undefined) q.where('pv.text_value', String(condition.eq));
      return q;
    };
  }
  if (inputType === INPUT_TYPES.enum) return (q) => q.whereIn('pv.option_id', condition.optionIds!);
  const parse = inputType === INPUT_TYPES.number ? parseNumber : parseDate;
  const column = inputType === INPUT_TYPES.number ? 'pv.number_value' : 'pv.date_value';
  const values: Partial<Record<'eq' | 'from' | 'to', string>> = {};
  for (const key of ['eq', 'from', 'to'] as const) {
    if (condition[key] === undefined) continue;
    const parsed = parse(condition[key]!);
    if (parsed === null) problems.push({ code: 'SEARCH_PROPERTY_INVALID', pointer: at(key) });
    else values[key] = parsed;
  }
  if (given.some((k) => k !== 'optionIds' && k !== 'contains' && values[k] === undefined)) return null;
  if (values.from !== undefined && values.to !== undefined && compare(inputType, values.from, values.to) > 0) {
    problems.push({ code: 'SEARCH_RANGE_INVALID', pointer: at('from') });
    return null;
  }
  return (q) => {
    if (values.eq !== undefined) q.where(column, values.eq);
    if (values.from !== undefined) q.where(column, '>=', values.from);
    if (values.to !== undefined) q.where(column, '<=', values.to);
    return q;
  };
}

/** A number as the search compares it (half-width digits, optional sign, decimals and thousands commas). */
function parseNumber(value: string | number): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  const plain = value.trim().replace(/,/g, '');
  return /^-?\d{1,15}(\.\d{1,15})?$/.test(plain) ? plain : null;
}

/** A date as yyyy-MM-dd (yyyy/MM/dd accepted), only if the day exists. */
function parseDate(value: string | number): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(value.trim());
  if (!match) return null;
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day ? day : null;
}

function compare(inputType: number, a: string, b: string): number {
  if (inputType === INPUT_TYPES.number) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

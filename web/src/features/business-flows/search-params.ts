// The business flow search as the URL keeps it (flat strings, so a search is a link) and as the screen edits it.
// Pure TypeScript without i18n: the router imports validateFlowSearchParams, the unit tests everything.

/** Drafts (not sent yet) are listed only when the search asks for them. */
export const FLOW_STATUSES = ['draft', 'in_progress', 'complete', 'incomplete', 'cancelled'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

export const FLOW_SORTS = ['-updatedAt', 'updatedAt', '-createdAt', 'createdAt', 'name', '-name', 'status', '-status'];
export const DEFAULT_SORT = '-updatedAt';
export const PAGE_SIZES = [20, 50, 100] as const;

/** The date filters of the search, each a yyyy-MM-dd day in Japan (or empty). */
export const DATE_FIELDS = [
  'createdFrom',
  'createdTo',
  'updatedFrom',
  'updatedTo',
  'completedFrom',
  'completedTo',
] as const;
export type DateField = (typeof DATE_FIELDS)[number];

/** One custom property condition: text contains, a number or date range (inclusive), or any of enum options. */
export type PropertyCondition =
  | { propertyId: string; kind: 'contains'; text: string }
  | { propertyId: string; kind: 'range'; from: string; to: string }
  | { propertyId: string; kind: 'options'; optionIds: string[] };

export interface FlowSearch {
  q: string;
  statuses: FlowStatus[];
  workspaceId: string;
  dates: Record<DateField, string>;
  conditions: PropertyCondition[];
  sort: string;
  page: number;
  size: number;
}

/** The URL search parameters of the list screen: every value a string, absent when it is the default. */
export const PARAM_KEYS = ['q', 'status', 'workspaceId', ...DATE_FIELDS, 'props', 'sort', 'page', 'size'] as const;
export type FlowSearchParams = Partial<Record<(typeof PARAM_KEYS)[number], string>>;

const UUID_LIKE = /^[0-9A-Za-z-]{1,64}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The router's validateSearch: only the known keys, only strings (anything else is dropped, not an error). */
export function validateFlowSearchParams(search: Record<string, unknown>): FlowSearchParams {
  const params: FlowSearchParams = {};
  for (const key of PARAM_KEYS) {
    const value = search[key];
    if (typeof value === 'string' && value !== '') params[key] = value;
    else if (typeof value === 'number') params[key] = String(value);
  }
  return params;
}

export function emptyDates(): Record<DateField, string> {
  return Object.fromEntries(DATE_FIELDS.map((field) => [field, ''])) as Record<DateField, string>;
}

export function emptySearch(): FlowSearch {
  return {
    q: '',
    statuses: [],
    workspaceId: '',
    dates: emptyDates(),
    conditions: [],
    sort: DEFAULT_SORT,
    page: 1,
    size: PAGE_SIZES[0],
  };
}

/*
 * Conditions travel as one parameter: conditions joined by ',', the parts of one by ':', each part URI-encoded (so
 * a typed ',' or ':' never splits anything): `<propertyId>:contains:<text>`, `<propertyId>:range:<from>:<to>`,
 * `<propertyId>:options:<id>:<id>...`.
 */
const part = (value: string) => encodeURIComponent(value);

export function encodeConditions(conditions: PropertyCondition[]): string {
  return conditions
    .map((c) => {
      const head = `${part(c.propertyId)}:${c.kind}`;
      if (c.kind === 'contains') return `${head}:${part(c.text)}`;
      if (c.kind === 'range') return `${head}:${part(c.from)}:${part(c.to)}`;
      return [head, ...c.optionIds.map(part)].join(':');
    })
    .join(',');
}

function decodePart(value: string | undefined): string | null {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    return null;
  }
}

function decodeCondition(text: string): PropertyCondition | null {
  const [rawId, kind, ...rest] = text.split(':');
  const propertyId = decodePart(rawId);
  const values = rest.map(decodePart);
  if (!propertyId || !UUID_LIKE.test(propertyId) || values.some((v) => v === null)) return null;
  const parts = values as string[];
  if (kind === 'contains' && parts.length === 1) return { propertyId, kind, text: parts[0]! };
  if (kind === 'range' && parts.length === 2) return { propertyId, kind, from: parts[0]!, to: parts[1]! };
  if (kind === 'options') return { propertyId, kind, optionIds: parts.filter((p) => p !== '') };
  return null;
}

/** The conditions of a `props` parameter; a malformed condition is left out, the others stay. */
export function decodeConditions(text: string | undefined): PropertyCondition[] {
  if (!text) return [];
  return text
    .split(',')
    .map(decodeCondition)
    .filter((c): c is PropertyCondition => c !== null);
}

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/** The search a URL describes; unknown statuses, sorts, sizes and malformed days fall back to the defaults. */
export function parseFlowSearch(params: FlowSearchParams): FlowSearch {
  const search = emptySearch();
  search.q = params.q ?? '';
  search.statuses = (params.status ?? '')
    .split(',')
    .filter((s): s is FlowStatus => (FLOW_STATUSES as readonly string[]).includes(s));
  search.workspaceId = params.workspaceId && UUID_LIKE.test(params.workspaceId) ? params.workspaceId : '';
  for (const field of DATE_FIELDS) {
    const value = params[field];
    search.dates[field] = value && DAY.test(value) ? value : '';
  }
  search.conditions = decodeConditions(params.props);
  search.sort = params.sort && FLOW_SORTS.includes(params.sort) ? params.sort : DEFAULT_SORT;
  search.page = positive(params.page, 1);
  const size = positive(params.size, PAGE_SIZES[0]);
  search.size = (PAGE_SIZES as readonly number[]).includes(size) ? size : PAGE_SIZES[0];
  return search;
}

/** The URL parameters of a search: defaults and empty values are left out, so links stay short. */
export function flowSearchParams(search: FlowSearch): FlowSearchParams {
  const params: FlowSearchParams = {};
  if (search.q.trim()) params.q = search.q.trim();
  if (search.statuses.length > 0) params.status = search.statuses.join(',');
  if (search.workspaceId) params.workspaceId = search.workspaceId;
  for (const field of DATE_FIELDS) if (search.dates[field]) params[field] = search.dates[field];
  if (search.conditions.length > 0) params.props = encodeConditions(search.conditions);
  if (search.sort !== DEFAULT_SORT) params.sort = search.sort;
  if (search.page !== 1) params.page = String(search.page);
  if (search.size !== PAGE_SIZES[0]) params.size = String(search.size);
  return params;
}

/** A condition's request form: only the bounds and texts that are filled in. */
export function conditionFilter(condition: PropertyCondition) {
  if (condition.kind === 'contains') return { propertyId: condition.propertyId, contains: condition.text.trim() };
  if (condition.kind === 'options') return { propertyId: condition.propertyId, optionIds: condition.optionIds };
  return {
    propertyId: condition.propertyId,
    ...(condition.from.trim() ? { from: condition.from.trim() } : {}),
    ...(condition.to.trim() ? { to: condition.to.trim() } : {}),
  };
}

/** True for a condition that restricts nothing (no text, no bound, no option): it is not sent. */
export function isBlankCondition(condition: PropertyCondition): boolean {
  if (condition.kind === 'contains') return condition.text.trim() === '';
  if (condition.kind === 'options') return condition.optionIds.length === 0;
  return condition.from.trim() === '' && condition.to.trim() === '';
}

/**
 * The creation screen's search: the workspace to create the flow in (from a workspace's "new business flow"), or the
 * draft to go on with (`draft`, from a draft's "continue editing").
 */
export function validateNewFlowSearch(search: Record<string, unknown>): { workspaceId?: string; draft?: string } {
  const result: { workspaceId?: string; draft?: string } = {};
  if (typeof search.workspaceId === 'string' && UUID_LIKE.test(search.workspaceId)) {
    result.workspaceId = search.workspaceId;
  }
  if (typeof search.draft === 'string' && UUID_LIKE.test(search.draft)) result.draft = search.draft;
  return result;
}

/** True when the search filters anything (so an empty result reads "nothing matches", not "no flows yet"). */
export function hasFilters(search: FlowSearch): boolean {
  const { sort: _sort, page: _page, size: _size, ...filters } = flowSearchParams(search);
  return Object.keys(filters).length > 0;
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BillingStatementList = components['schemas']['BillingStatementList'];

/** GET /billing/statements (listBillingStatements): closed invoices and credit notes, newest month first. */
export async function listBillingStatements(): Promise<BillingStatementList> {
  return unwrap(await api.GET('/billing/statements', { params: { query: { 'page[size]': 100 } } }));
}

export const billingStatementsQueryOptions = () =>
  queryOptions({ queryKey: ['billing', 'statements'], queryFn: listBillingStatements });

export function useBillingStatements() {
  return useQuery(billingStatementsQueryOptions());
}

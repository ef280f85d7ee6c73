import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { ValueDefinition } from '../property-values.ts';

/** A stored property's attributes: the contract answers every setting (null where it does not apply). */
type PropertyAttributes = Required<components['schemas']['PropertySettings']> &
  components['schemas']['Property']['attributes'];

/** A flow-scope definition as the inputs and the search conditions read it. */
export type FlowProperty = ValueDefinition & { attributes: { publicToClient: boolean } };

/**
 * GET /properties (listProperties) of one scope (10 business flow, 20 document): the organization's definitions,
 * for the search's conditions and the form's inputs (an organization has at most 100 of a scope, one page).
 */
export async function listFlowProperties(scope: 10 | 20 = 10): Promise<FlowProperty[]> {
  const query = { 'filter[scope]': scope, sort: 'name', 'page[size]': 100 } as const;
  const body = unwrap(await api.GET('/properties', { params: { query } }));
  return body.data.map((property) => {
    const a = property.attributes as PropertyAttributes;
    return {
      id: property.id,
      attributes: {
        name: a.name,
        inputType: a.inputType,
        required: a.required,
        numberUnit: a.numberUnit,
        integerLength: a.integerLength,
        decimalLength: a.decimalLength,
        minValue: a.minValue,
        maxValue: a.maxValue,
        minLength: a.minLength,
        maxLength: a.maxLength,
        allowNewline: a.allowNewline,
        allowFullWidth: a.allowFullWidth,
        afterTomorrow: a.afterTomorrow,
        options: a.options,
        lockVersion: a.lockVersion,
        optionsVersion: a.optionsVersion,
        publicToClient: a.publicToClient,
      },
    };
  });
}

export const flowPropertiesQueryOptions = () =>
  queryOptions({
    queryKey: ['business-flows', 'properties'],
    queryFn: () => listFlowProperties(10),
    staleTime: 60_000,
  });

export function useFlowProperties() {
  return useQuery(flowPropertiesQueryOptions());
}

/** Document-scope definitions: the search also finds flows by their documents' values (read by AI-OCR, say). */
export function useDocumentProperties() {
  return useQuery({
    queryKey: ['business-flows', 'document-properties'],
    queryFn: () => listFlowProperties(20),
    staleTime: 60_000,
  });
}

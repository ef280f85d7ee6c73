import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { createPropertyRoute } from './create-property.ts';
import { deletePropertyRoute } from './delete-property.ts';
import { readPropertyRoutes } from './list-properties.ts';
import { updatePropertyRoute } from './update-property.ts';

/** Custom property definitions: anyone signed in reads them, administrators on a paid plan change them. */
export function propertyRoutes(api: ApiRouter, deps: CoreDeps): void {
  readPropertyRoutes(api, deps);
  createPropertyRoute(api, deps);
  updatePropertyRoute(api, deps);
  deletePropertyRoute(api, deps);
}

import { csvHeaders } from '../../contract/csv.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { actorOf } from '../users/service.ts';
import { exportGroups } from './export-groups.ts';
import { exportUsers } from './export-users.ts';
import { GROUPS_TABLE, groupsTarget } from './import-groups.ts';
import { USERS_TABLE, usersTarget } from './import-users.ts';
import { runImport } from './run-import.ts';
import { readTable } from './table.ts';

/** A CSV download: UTF-8 with BOM, named after what it holds and the day. */
function csvFile(name: string, text: string, now: Date) {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return { body: text, headers: csvHeaders(`${name}-${day}.csv`) };
}

/** CSV batch editing of users and groups: import (with a dry-run preview) and export, for administrators. */
export function batchRoutes(api: ApiRouter, deps: CoreDeps): void {
  const manage = { permission: 'users:manage' } as const;

  api.operation('importUsersCsv', manage, async ({ principal, body, query, req }) => {
    const table = readTable(body, USERS_TABLE);
    const target = (d: CoreDeps) => usersTarget(d, actorOf(principal, req));
    return { body: await runImport(deps, req, principal, target, table.rows, query.dryRun ?? false) };
  });

  api.operation('importGroupsCsv', manage, async ({ principal, body, query, req }) => {
    const table = readTable(body, GROUPS_TABLE);
    const target = (d: CoreDeps) => groupsTarget(d, actorOf(principal, req));
    return { body: await runImport(deps, req, principal, target, table.rows, query.dryRun ?? false) };
  });

  api.operation('exportUsersCsv', manage, async ({ principal, query }) =>
    csvFile('users', await exportUsers(deps.knex, principal, query), deps.clock.now()),
  );

  api.operation('exportGroupsCsv', manage, async ({ principal, query }) =>
    csvFile('groups', await exportGroups(deps.knex, principal, query['filter[q]']), deps.clock.now()),
  );
}

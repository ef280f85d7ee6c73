import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { documentActorOf } from '../documents/model.ts';
import { documentAccess } from '../workspaces/access.ts';
import { cancelTask } from './cancel-task.ts';
import { replaceTasks, updateTask } from './edit-plan.ts';
import { executeTask } from './execute-task.ts';
import { listMyTasks } from './my-tasks.ts';
import { documentPageSizes, type PageSize, planHasFields, type TaskInput } from './plan.ts';
import { remandDocument } from './remand-document.ts';
import { taskBody, taskListBody } from './resources.ts';

/** Task plans, my tasks, and the steps of a document's tasks (approve, read, remand, cancel). */
export function taskRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;

  api.operation('getDocumentTasks', async ({ principal, params }) => {
    await documentAccess(knex, principal, params.documentId);
    return { body: await taskListBody(knex, principal, params.documentId) };
  });

  api.operation('replaceDocumentTasks', async ({ principal, params, body, req }) => {
    const { lockVersion } = body.data.attributes;
    const tasks = body.data.attributes.tasks as TaskInput[];
    // Fields are checked against the pages of the PDF, read in the worker pool before any transaction opens.
    let pageSizes: PageSize[] | undefined;
    if (planHasFields(tasks)) {
      await documentAccess(knex, principal, params.documentId);
      pageSizes = await documentPageSizes(deps, knex, params.documentId);
    }
    await knex.transaction((trx) =>
      replaceTasks(deps, trx, principal, documentActorOf(principal, req), params.documentId, {
        lockVersion,
        tasks,
        pageSizes,
      }),
    );
    return { body: await taskListBody(knex, principal, params.documentId) };
  });

  api.operation('listMyTasks', async ({ principal, query }) => ({ body: await listMyTasks(knex, principal, query) }));

  api.operation('updateTask', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      updateTask(deps, trx, principal, documentActorOf(principal, req), params.taskId, body.data.attributes),
    );
    return { body: await taskBody(knex, principal, params.taskId) };
  });

  for (const [operationId, action] of [
    ['approveTask', 'approve'],
    ['readTask', 'read'],
  ] as const) {
    api.operation(operationId, async ({ principal, params, body, req }) => {
      await knex.transaction((trx) =>
        executeTask(deps, trx, principal, documentActorOf(principal, req), params.taskId, action, body.data.attributes),
      );
      return { body: await taskBody(knex, principal, params.taskId) };
    });
  }

  api.operation('remandDocument', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      remandDocument(deps, trx, principal, documentActorOf(principal, req), params.taskId, body.data.attributes),
    );
    return { body: await taskBody(knex, principal, params.taskId) };
  });

  api.operation('cancelTask', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      cancelTask(deps, trx, principal, documentActorOf(principal, req), params.taskId, body.data.attributes),
    );
    return { body: await taskBody(knex, principal, params.taskId) };
  });
}

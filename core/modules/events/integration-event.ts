/*
 * Integration events (webhooks): a change queues one job INSIDE its own transaction, and the job tells the plugins
 * (hook 'integration.event') once per organization after the change committed, as completed-event.ts does for
 * documents. A rolled-back change tells nothing; a crash between commit and hooks loses nothing (the job retries),
 * so a hook may hear of one event twice and tells it apart by `id`.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { IntegrationEventType } from './types.ts';

export const INTEGRATION_EVENT_JOB = 'events.integration';

interface IntegrationEventJob {
  id: string;
  type: IntegrationEventType;
  occurredAt: string;
  organizationIds: string[];
  data: Record<string, unknown>;
}

/** Queues one event in the caller's transaction, for the organizations named (duplicates are dropped). */
export async function queueIntegrationEvent(
  deps: Pick<CoreDeps, 'jobs' | 'clock'>,
  trx: Knex.Transaction,
  event: { type: IntegrationEventType; organizationIds: string[]; data: Record<string, unknown> },
): Promise<void> {
  if (event.organizationIds.length === 0) return;
  const id = randomUUID();
  await deps.jobs.send<IntegrationEventJob>(
    INTEGRATION_EVENT_JOB,
    {
      id,
      type: event.type,
      occurredAt: deps.clock.now().toISOString(),
      organizationIds: [...new Set(event.organizationIds)],
      data: event.data,
    },
    { trx, id },
  );
}

/** Registers the job that tells the hooks; call before the job queue starts. */
export function registerIntegrationEventJob(deps: CoreDeps): void {
  deps.jobs.register<IntegrationEventJob>(
    INTEGRATION_EVENT_JOB,
    async (job) => {
      const { organizationIds, ...event } = job.data;
      const organizations: { id: string; plan: string; options: string[] | null }[] = await deps
        .knex('organizations')
        .whereIn('id', organizationIds)
        .select('id', 'plan', 'options');
      for (const organizationId of organizationIds) {
        const organization = organizations.find((o) => o.id === organizationId);
        if (!organization) continue; // deleted since
        await deps.events.emit('integration.event', {
          ...event,
          organizationId,
          plan: organization.plan as never,
          options: (organization.options ?? []) as never,
        });
      }
    },
    { retryLimit: 5 },
  );
}

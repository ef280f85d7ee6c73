import type { ApiRouter } from '../../contract/router.ts';

/** Liveness answers from the process alone; readiness asks the database and the migrations. */
export function healthRoutes(api: ApiRouter, ready: () => Promise<Record<string, string>>): void {
  api.operation('getHealth', async () => ({ body: { status: 'ok' } }));

  api.operation('getReadiness', async () => {
    const checks = await ready();
    const ok = Object.values(checks).every((value) => value === 'ok');
    return { status: ok ? 200 : 503, body: { status: ok ? 'ok' : 'unavailable', checks } };
  });
}

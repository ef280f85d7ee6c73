/*
 * The integrator's journey of README "Integrator quick start", through nothing but the generated TypeScript client
 * (openapi-fetch's createClient<paths>() over core/contract/api.gen.ts) and an API key: find the workspace and the
 * template by systemLinkId, create a flow with an Idempotency-Key (a retry answers the same flow), upload a PDF,
 * plan a task for the key's own group, send, execute it, receive the signed document.completed and
 * business_flow.completed webhooks, and download the completed PDF. The administrator's part (group, key,
 * workspace, template, webhook endpoint) goes through the same client with the administrator's bearer token; only
 * the sign-up and the plan are set up by test helpers. Every request and response body is typechecked.
 */
import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { components, paths } from '../../core/contract/api.gen.ts';
import { signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { WebhookReceiver } from '../peers/webhook-receiver.ts';

vi.setConfig({ testTimeout: 30_000 });

type FlowStatus = components['schemas']['BusinessFlowStatus'];
type DocumentStatus = components['schemas']['DocumentStatus'];
type UploadForm = components['schemas']['DocumentUploadForm'];

/** The delivered body, as the contract's `webhooks` section declares it. */
type WebhookPayload = components['schemas']['WebhookEvent'];

let app: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  app = await startApp({
    env: {
      // The receiver listens on 127.0.0.1 over http: the operator's allowances this test needs, and no more.
      KEIYAKU_PLUGIN_WEBHOOKS_ALLOW_HTTP: 'true',
      KEIYAKU_PLUGIN_WEBHOOKS_ALLOWED_CIDRS: '127.0.0.1/32',
      KEIYAKU_PLUGIN_WEBHOOKS_RETRY_SCHEDULE_SECONDS: '1,2',
      KEIYAKU_PLUGIN_WEBHOOKS_TIMEOUT_SECONDS: '2',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

/** The generated client with `Authorization: Bearer <token>` on every request, as an integrator writes it. */
function clientWith(token: string): Client<paths> {
  const client = createClient<paths>({ baseUrl: `${app.url}/core/v1` });
  const bearer: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(bearer);
  return client;
}

/** The answer's data, or a failure showing the status and the JSON:API errors. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok || result.data === undefined) {
    throw new Error(`${result.response.status} ${result.response.url}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('an integrator with an API key and the generated client', () => {
  it('finds by systemLinkId, creates a flow idempotently, uploads, runs its task, hears the webhooks and downloads the PDF', async () => {
    // The administrator: sign-up and plan by helper, the rest through the generated client with a bearer token.
    const owner = await signedInOwner(app, { plan: 'standard' });
    const admin = clientWith(owner.token);
    const group = ok(
      await admin.POST('/groups', { body: { data: { type: 'Group', attributes: { name: '基幹連携グループ' } } } }),
    ).data;
    const created = ok(
      await admin.POST('/organization/api-keys', {
        body: {
          data: { type: 'ApiKey', attributes: { name: 'ERP', scopes: ['flows:write'], groupIds: [group.id] } },
        },
      }),
    );
    const secret = created.meta.secret;
    expect(secret).toMatch(/^kyk_/);
    ok(
      await admin.POST('/workspaces', {
        body: {
          data: {
            type: 'Workspace',
            attributes: {
              name: '営業部',
              systemLinkId: 'SALES',
              mailNotification: true,
              participants: [{ kind: 'group', groupId: group.id, isEditable: true }],
            },
          },
        },
      }),
    );
    ok(
      await admin.POST('/business-flow-templates', {
        body: { data: { type: 'BusinessFlowTemplate', attributes: { name: '秘密保持契約', systemLinkId: 'NDA' } } },
      }),
    );
    const endpoint = ok(
      await admin.POST('/webhook-endpoints', {
        body: {
          data: {
            type: 'WebhookEndpoint',
            attributes: {
              url: receiver.script('/erp', [200]),
              eventTypes: ['document.completed', 'business_flow.completed'],
            },
          },
        },
      }),
    );
    const webhook = new Webhook(endpoint.meta.secret);

    // From here on: the integrator, with nothing but the key and the generated client.
    const api = clientWith(secret);

    // 1. The workspace and the template by their IDs for system link.
    const workspaces = ok(await api.GET('/workspaces', { params: { query: { 'filter[systemLinkId]': 'SALES' } } }));
    expect(workspaces.data).toHaveLength(1);
    const workspaceId = workspaces.data[0]!.id;
    const templates = ok(
      await api.GET('/business-flow-templates', { params: { query: { 'filter[systemLinkId]': 'NDA' } } }),
    );
    expect(templates.data).toHaveLength(1);
    const templateId = templates.data[0]!.id;

    // 2. A draft flow from the template; the retry with the same Idempotency-Key answers the same flow.
    const retryKey = randomUUID();
    const createFlow = () =>
      api.POST('/workspaces/{workspaceId}/business-flows', {
        params: { path: { workspaceId }, header: { 'Idempotency-Key': retryKey } },
        body: {
          data: {
            type: 'BusinessFlow',
            attributes: {
              businessFlowTemplateId: templateId,
              systemLinkId: 'CRM-4711',
              draft: true,
              autoComplete: true,
            },
          },
        },
      });
    const first = await createFlow();
    const retry = await createFlow();
    const flow = ok(first).data;
    expect(first.response.status).toBe(201);
    expect(retry.response.status).toBe(201);
    expect(retry.response.headers.get('Idempotency-Replayed')).toBe('true');
    expect(ok(retry).data.id).toBe(flow.id);
    expect(flow.attributes).toMatchObject({ name: '秘密保持契約', systemLinkId: 'CRM-4711', status: 'draft' });
    const drafts = ok(
      await api.GET('/business-flows', {
        params: { query: { 'filter[systemLinkId]': 'CRM-4711', 'filter[status]': 'draft' } },
      }),
    );
    expect(drafts.data.map((f) => f.id)).toEqual([flow.id]);

    // 3. The PDF (multipart through the client's FormData body), its task for the key's own group, then send.
    const pdf = await buildPdf({ text: 'NDA with Example Co' });
    // The generated type checks the form's field names; `file` (format binary) is typed as a string, so it carries
    // the file name and the serializer puts the bytes under it.
    const pdfBlob = new Blob([new Uint8Array(pdf)], { type: 'application/pdf' });
    const document = ok(
      await api.POST('/business-flows/{businessFlowId}/documents', {
        params: { path: { businessFlowId: flow.id } },
        body: { file: 'nda.pdf', name: 'NDA', systemLinkId: 'CRM-4711-1' } satisfies UploadForm,
        bodySerializer: ({ file, ...fields }) => {
          const form = new FormData();
          for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
          form.append('file', pdfBlob, file);
          return form;
        },
      }),
    ).data;
    const plan = ok(
      await api.PUT('/documents/{documentId}/tasks', {
        params: { path: { documentId: document.id } },
        body: {
          data: {
            type: 'DocumentTasks',
            attributes: {
              lockVersion: document.attributes.lockVersion,
              tasks: [
                {
                  order: 1,
                  type: 'approve',
                  required: true,
                  assignee: { kind: 'group', groupId: group.id },
                  allowSignerPlacements: false,
                },
              ],
            },
          },
        },
      }),
    );
    expect(plan.data).toHaveLength(1);
    const taskId = plan.data[0]!.id;
    // The malware scan's verdict comes from a job; the draft can be sent once it is clean.
    await waitFor('a clean scan', async () => {
      const got = ok(await api.GET('/documents/{documentId}', { params: { path: { documentId: document.id } } }));
      return got.data.attributes.currentVersion.scanStatus === 'clean';
    });
    const current = ok(
      await api.GET('/business-flows/{businessFlowId}', { params: { path: { businessFlowId: flow.id } } }),
    );
    const sent = ok(
      await api.POST('/business-flows/{businessFlowId}/send', {
        params: { path: { businessFlowId: flow.id } },
        body: { data: { type: 'BusinessFlow', attributes: { lockVersion: current.data.attributes.lockVersion } } },
      }),
    );
    expect(sent.data.attributes.status).toBe('in_progress');

    // The key's service user, a member of the assigned group, sees and runs its task.
    const mine = ok(await api.GET('/tasks/mine'));
    const task = mine.data.find((t) => t.id === taskId);
    expect(task?.attributes).toMatchObject({ type: 'approve', blockedByScan: false });
    ok(
      await api.POST('/tasks/{taskId}/approve', {
        params: { path: { taskId } },
        body: { data: { type: 'TaskExecution', attributes: { lockVersion: task!.attributes.lockVersion } } },
      }),
    );

    // 4. Both events arrive signed with the endpoint's secret, with the flow's and document's ids and systemLinkIds.
    const events = await waitFor('both webhooks', async () => {
      const verified = receiver.to('/erp').map((r) => webhook.verify(r.body, r.headers as Record<string, string>));
      const payloads = verified as WebhookPayload[];
      const byType = new Map(payloads.map((p) => [p.type, p]));
      return byType.has('document.completed') && byType.has('business_flow.completed') ? byType : null;
    });
    const refs = {
      workspace: { id: workspaceId, systemLinkId: 'SALES' },
      businessFlow: { id: flow.id, systemLinkId: 'CRM-4711', name: '秘密保持契約' },
    };
    expect(events.get('document.completed')).toMatchObject({
      organizationId: owner.organizationId,
      data: { ...refs, document: { id: document.id, systemLinkId: 'CRM-4711-1', name: 'NDA' } },
    });
    expect(events.get('business_flow.completed')).toMatchObject({ organizationId: owner.organizationId, data: refs });

    // 5. The completed flow by its systemLinkId (exactly one: the retry made none), and the final PDF.
    const completed = ok(
      await api.GET('/business-flows', { params: { query: { 'filter[systemLinkId]': 'CRM-4711' } } }),
    );
    expect(completed.data.map((f) => [f.id, f.attributes.status])).toEqual([
      [flow.id, 'complete' satisfies FlowStatus],
    ]);
    const documents = ok(
      await api.GET('/business-flows/{businessFlowId}/documents', {
        params: { path: { businessFlowId: flow.id }, query: { 'filter[systemLinkId]': 'CRM-4711-1' } },
      }),
    );
    expect(documents.data.map((d) => [d.id, d.attributes.status])).toEqual([
      [document.id, 'completed' satisfies DocumentStatus],
    ]);
    const file = await api.GET('/documents/{documentId}/file', {
      params: { path: { documentId: document.id } },
      parseAs: 'arrayBuffer',
    });
    expect(file.response.status).toBe(200);
    expect(file.response.headers.get('content-type')).toMatch(/application\/pdf/);
    expect(Buffer.from(ok(file)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

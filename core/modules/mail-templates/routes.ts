import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { composeMail, MAIL_KIND_DEFINITIONS, MAIL_KINDS } from '../../mail/messages.ts';
import { sampleValues } from './sample-values.ts';
import {
  builtIn,
  checkPlaceholders,
  type EffectiveTemplate,
  effectiveTemplate,
  effectiveTemplates,
  mailKindOf,
  resourceOf,
} from './templates.ts';
import { resetMailTemplate, saveMailTemplate } from './save-template.ts';

const gate = { permission: 'organization:manage' } as const;

const SORT_KEYS = {
  kind: (a: EffectiveTemplate, b: EffectiveTemplate) => MAIL_KINDS.indexOf(a.kind) - MAIL_KINDS.indexOf(b.kind),
  name: (a: EffectiveTemplate, b: EffectiveTemplate) => a.name.localeCompare(b.name),
  updatedAt: (a: EffectiveTemplate, b: EffectiveTemplate) =>
    (a.updatedAt?.getTime() ?? 0) - (b.updatedAt?.getTime() ?? 0),
};

/** Mail templates of the caller's organization: every kind listed, customisations saved, reset and previewed. */
export function mailTemplateRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;

  // Built-in templates are not rows, so the list (kinds × languages, a few dozen at most) is filtered and paged
  // in memory; paging and meta are the same as every other list's.
  api.operation('listMailTemplates', gate, async ({ principal, query }) => {
    const q = query['filter[q]']?.trim().toLowerCase();
    const all = (await effectiveTemplates(knex, principal.organizationId)).filter(
      (t) =>
        (!query['filter[locale]'] || t.locale === query['filter[locale]']) &&
        (query['filter[customised]'] === undefined || t.customised === query['filter[customised]']) &&
        (!q || [t.name, t.summary, t.subject].some((text) => text.toLowerCase().includes(q))),
    );
    const sort = query.sort ?? 'kind';
    const compare = SORT_KEYS[sort.replace(/^-/, '') as keyof typeof SORT_KEYS];
    const tieBreak = (a: EffectiveTemplate, b: EffectiveTemplate) =>
      SORT_KEYS.kind(a, b) || (a.locale === b.locale ? 0 : a.locale === 'ja' ? -1 : 1);
    all.sort((a, b) => (sort.startsWith('-') ? -compare(a, b) : compare(a, b)) || tieBreak(a, b));
    const number = query['page[number]'] ?? 1;
    const size = query['page[size]'] ?? 20;
    return {
      body: {
        data: all.slice((number - 1) * size, number * size).map(resourceOf),
        meta: { total: all.length, page: { number, size } },
      },
    };
  });

  api.operation('getMailTemplate', gate, async ({ principal, params }) => {
    const kind = mailKindOf(params.kind);
    return { body: { data: resourceOf(await effectiveTemplate(knex, principal.organizationId, kind, params.locale)) } };
  });

  api.operation('updateMailTemplate', gate, async ({ principal, params, body, req }) => {
    const kind = mailKindOf(params.kind);
    const attributes = body.data.attributes;
    checkPlaceholders(kind, attributes, '/data/attributes');
    const saved = await saveMailTemplate(deps, principal, req, { kind, locale: params.locale, ...attributes });
    return { body: { data: resourceOf(saved) } };
  });

  api.operation('resetMailTemplate', gate, async ({ principal, params, query, req }) => {
    const kind = mailKindOf(params.kind);
    await resetMailTemplate(deps, principal, req, { kind, locale: params.locale, lockVersion: query.lockVersion });
    return { body: { data: resourceOf(builtIn(kind, params.locale)) } };
  });

  api.operation('previewMailTemplate', gate, async ({ principal, params, body }) => {
    const kind = mailKindOf(params.kind);
    const draft = body.data.attributes;
    checkPlaceholders(kind, draft, '/data/attributes');
    const organization = await knex('organizations').where({ id: principal.organizationId }).first('name');
    if (!organization) throw new AppError('NOT_FOUND');
    const all = {
      ...sampleValues(params.locale, deps.config.publicUrl, deps.clock.now()),
      organizationName: organization.name,
    };
    const values = Object.fromEntries(
      MAIL_KIND_DEFINITIONS[kind].placeholders.map((name) => [name, all[name as keyof typeof all] ?? '']),
    );
    const mail = composeMail(kind, params.locale, values, draft);
    return {
      body: {
        data: {
          type: 'MailPreview' as const,
          attributes: { subject: mail.subject, text: mail.text, sampleValues: values },
        },
      },
    };
  });
}

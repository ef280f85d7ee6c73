import type { Command } from 'commander';
import {
  addConnectionOptions,
  type ApiClient,
  cliLocale,
  createApiClient,
  CliError,
  EXIT,
  serverUrl,
  unwrap,
  usageError,
} from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';

const PLANS = ['free', 'standard', 'professional'] as const;
const OPTIONS = ['aiOcr'] as const;

/** A client authenticated with the service operator's token (KEIYAKU_OPERATOR_TOKEN, as configured on the server). */
function operatorClient(url: string | undefined, env: NodeJS.ProcessEnv = process.env): ApiClient {
  const token = env.KEIYAKU_OPERATOR_TOKEN;
  if (!token) {
    throw new CliError(
      "set KEIYAKU_OPERATOR_TOKEN to the server's operator token to manage organizations",
      EXIT.notSignedIn,
    );
  }
  return createApiClient(serverUrl(url, env), cliLocale(env), async () => token);
}

type Organization = {
  id: string;
  attributes: {
    code: string;
    name: string;
    plan: string;
    options: string[];
    pendingRequest: { attributes: { plan: string; options: string[]; comment: string; createdAt: string } } | null;
  };
};

function describe(org: Organization): string {
  const a = org.attributes;
  const pending = a.pendingRequest?.attributes;
  const request = pending
    ? `  requested ${pending.plan}${pending.options.length ? ` + ${pending.options.join(', ')}` : ''} on ` +
      `${pending.createdAt.slice(0, 10)}${pending.comment ? `: ${pending.comment}` : ''}`
    : '';
  return `${a.code}\t${a.name}\t${a.plan}\t${a.options.join(',') || '-'}${request ? `\n${request}` : ''}`;
}

/** `keiyaku orgs list|set-plan|set-option`: the service operator's plan administration. */
export const orgsCommand: CliCommand = {
  group: 'orgs',
  groupDescription: "Organizations' plans and paid options (service operator; KEIYAKU_OPERATOR_TOKEN)",
  register(group: Command, output: CliOutput) {
    addConnectionOptions(
      group
        .command('list')
        .description('List organizations with their plan, options and pending change requests')
        .option('--pending', 'only organizations with a pending plan change request')
        .option('--code <code>', 'one organization by its code'),
    ).action(async (options: { url?: string; pending?: boolean; code?: string }) => {
      const client = operatorClient(options.url);
      for (let page = 1; ; page += 1) {
        const result = unwrap(
          await client.GET('/operator/organizations', {
            params: {
              query: {
                'page[number]': page,
                'page[size]': 100,
                ...(options.pending ? { 'filter[pendingRequest]': true } : {}),
                ...(options.code ? { 'filter[code]': options.code } : {}),
              },
            },
          }),
        );
        for (const org of result.data) output.out(`${describe(org)}\n`);
        if (page * 100 >= result.meta.total) break;
      }
    });

    addConnectionOptions(
      group
        .command('set-plan')
        .description('Put an organization (id or code) on a plan')
        .argument('<org>', 'organization id or code')
        .argument('<plan>', PLANS.join(' | ')),
    ).action(async (org: string, plan: string, options: { url?: string }) => {
      if (!(PLANS as readonly string[]).includes(plan)) throw usageError(`plan must be one of ${PLANS.join(', ')}`);
      const client = operatorClient(options.url);
      const result = unwrap(
        await client.PUT('/operator/organizations/{organization}/plan', {
          params: { path: { organization: org } },
          body: { data: { type: 'OrganizationPlan', attributes: { plan: plan as (typeof PLANS)[number] } } },
        }),
      );
      output.out(`${describe(result.data)}\n`);
    });

    addConnectionOptions(
      group
        .command('set-option')
        .description('Switch a paid option of an organization (id or code) on or off')
        .argument('<org>', 'organization id or code')
        .argument('<option>', OPTIONS.join(' | '))
        .argument('<state>', 'on | off'),
    ).action(async (org: string, option: string, state: string, options: { url?: string }) => {
      if (!(OPTIONS as readonly string[]).includes(option)) {
        throw usageError(`option must be one of ${OPTIONS.join(', ')}`);
      }
      if (state !== 'on' && state !== 'off') throw usageError('state must be on or off');
      const client = operatorClient(options.url);
      const result = unwrap(
        await client.PUT('/operator/organizations/{organization}/options/{option}', {
          params: { path: { organization: org, option: option as (typeof OPTIONS)[number] } },
          body: { data: { type: 'OrganizationOption', attributes: { enabled: state === 'on' } } },
        }),
      );
      output.out(`${describe(result.data)}\n`);
    });
  },
};

import type { Command } from 'commander';
import { addConnectionOptions, cliLocale, createApiClient, serverUrl, unwrap } from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';

const yen = (amount: number) => `¥${amount.toLocaleString('en-US')}`;

/** `keiyaku plans list`: the plans and paid options the server runs with, their features, limits and prices. */
export const plansListCommand: CliCommand = {
  group: 'plans',
  groupDescription: 'Plans and paid options (features, limits, prices)',
  register(group: Command, output: CliOutput) {
    addConnectionOptions(
      group
        .command('list')
        .description('List the plans and paid options with their monthly fees, limits and metered prices')
        .option('--json', 'print the catalogue as JSON'),
    ).action(async (options: { url?: string; json?: boolean }) => {
      const client = createApiClient(serverUrl(options.url), cliLocale(), async () => null);
      const catalog = unwrap(await client.GET('/plans'));
      if (options.json) {
        output.out(`${JSON.stringify(catalog, null, 2)}\n`);
        return;
      }
      const lines = [
        `Prices in ${catalog.meta.currency}, consumption tax (${catalog.meta.consumptionTaxPercent} %) excluded`,
      ];
      for (const plan of catalog.data) {
        const a = plan.attributes;
        lines.push(
          '',
          `${plan.id} (${a.names.en} / ${a.names.ja}): ${yen(a.monthlyFee)} a month`,
          `  features: ${a.features.join(', ') || '(core workflow only)'}`,
          `  limits: ${a.limits.groups} groups, ${a.limits.roles} roles`,
          `  documents ${yen(a.metered.documents.unitPrice)} (${a.metered.documents.included} included), ` +
            `timestamps ${yen(a.metered.timestamps.unitPrice)} (${a.metered.timestamps.included} included), ` +
            `one-time users ${yen(a.metered.oneTimeUsers.unitPrice)}`,
          `  signatures: ${Object.entries(a.metered.signatures)
            .map(([type, price]) => `${type} ${yen(price.unitPrice)}`)
            .join(', ')}`,
        );
      }
      for (const option of catalog.meta.options) {
        const metered = Object.entries(option.metered).map(([unit, price]) => `${unit} ${yen(price.unitPrice)}`);
        const allowance = Object.entries(option.monthlyAllowance).map(([plan, n]) => `${plan} ${n}`);
        lines.push(
          '',
          `option ${option.option} (${option.names.en}): ${yen(option.monthlyFee)} a month; ${metered.join(', ')}`,
          `  monthly allowance: ${allowance.join(', ')}`,
        );
      }
      output.out(`${lines.join('\n')}\n`);
    });
  },
};

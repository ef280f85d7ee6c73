import { randomUUID } from 'node:crypto';
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { addConnectionOptions, cliLocale, createApiClient, CliError, EXIT, serverUrl, unwrap } from '../api.ts';
import type { CliCommand, CliOutput } from '../command.ts';

function yen(value: string): number {
  const amount = Number(value);
  if (!Number.isSafeInteger(amount) || amount < 1) throw new InvalidArgumentError('a whole number of yen, at least 1');
  return amount;
}

/**
 * `keiyaku billing credit-note <invoice number> --reason ... [--amount <yen>]`: the service operator corrects an
 * issued invoice with a credit note (返還請求書), the whole invoice or an amount (tax excluded). Authenticated with
 * KEIYAKU_OPERATOR_TOKEN, as `keiyaku orgs`. Each invocation sends a new request id and prints it (stderr) first;
 * `--request-id <id>` retries an invocation whose answer was lost without issuing a second credit note.
 */
export const billingCreditNoteCommand: CliCommand = {
  group: 'billing',
  groupDescription: 'Invoices of organizations (service operator; KEIYAKU_OPERATOR_TOKEN)',
  register(group: Command, output: CliOutput) {
    addConnectionOptions(
      group
        .command('credit-note')
        .description('Issue a credit note against an invoice: the whole invoice, or --amount yen (tax excluded)')
        .argument('<invoice>', 'the invoice number, e.g. INV-202611-000042')
        .requiredOption('--reason <text>', 'why the invoice is corrected (printed on the credit note)')
        .option('--amount <yen>', 'yen to give back, tax excluded (default: the whole invoice)', yen)
        .option(
          '--request-id <id>',
          'retry an earlier invocation: the id it printed (the same credit note is answered, none issued twice)',
        ),
    ).action(
      async (invoice: string, options: { url?: string; reason: string; amount?: number; requestId?: string }) => {
        const token = process.env.KEIYAKU_OPERATOR_TOKEN;
        if (!token) {
          throw new CliError(
            "set KEIYAKU_OPERATOR_TOKEN to the server's operator token to issue credit notes",
            EXIT.notSignedIn,
          );
        }
        // One id per invocation, printed first: after a timeout, the same command with --request-id retries safely.
        const requestId = options.requestId ?? randomUUID();
        output.err(`request id ${requestId}\n`);
        const client = createApiClient(serverUrl(options.url), cliLocale(), async () => token);
        const result = unwrap(
          await client.POST('/operator/billing/credit-notes', {
            body: {
              data: {
                type: 'BillingCreditNote',
                attributes: {
                  invoiceNumber: invoice,
                  reason: options.reason,
                  amount: options.amount ?? null,
                  requestId,
                },
              },
            },
          }),
        );
        const a = result.data.attributes;
        output.out(
          `${a.number}\t${a.issuedOn}\t${a.originalNumber}\tsubtotal ${a.subtotal}\ttax ${a.tax}\ttotal ${a.total}\n`,
        );
      },
    );
  },
};

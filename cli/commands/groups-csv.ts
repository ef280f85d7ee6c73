import type { CliCommand } from '../command.ts';
import { registerExport } from './users-export.ts';
import { registerImport } from './users-import.ts';

/** `keiyaku groups import FILE` and `keiyaku groups export`: CSV batch editing of groups. */
export const groupsCsvCommand: CliCommand = {
  group: 'groups',
  groupDescription: 'Groups of the organization: CSV import and export',
  register(group, output) {
    registerImport(group, output, 'groups');
    registerExport(group, output, 'groups');
  },
};

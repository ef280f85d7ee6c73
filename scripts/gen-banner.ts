// Prepends the DO NOT EDIT line to a generated file (openapi-typescript writes none of its own).
import { readFileSync, writeFileSync } from 'node:fs';

const banner = '// DO NOT EDIT: generated from openapi.yaml by `npm run gen:api`.\n';
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith(banner)) writeFileSync(file, banner + text);
}

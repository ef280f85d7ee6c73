#!/usr/bin/env node
// The `keiyaku` command: runs cli/main.ts through tsx, so the CLI needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../main.ts');
await main();

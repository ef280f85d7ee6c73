/** Areas under /organizations/* that later issues fill, in the order of the main menu and the dashboard tiles. */
export const WORKBENCH_AREAS = [
  { splat: 'workspaces', key: 'workspaces' },
  { splat: 'business-flows', key: 'businessFlows' },
  { splat: 'tasks', key: 'tasks' },
  { splat: 'templates', key: 'templates' },
  { splat: 'settings', key: 'organization' },
] as const;

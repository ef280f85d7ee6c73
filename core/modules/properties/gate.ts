/**
 * Changing definitions needs the plan feature and an administrator; reading them does not, so flows and documents
 * of an organization that moved to the free plan still show the values they hold.
 */
export const PROPERTY_WRITE_GATE = { feature: 'customProperties', permission: 'organization:manage' } as const;

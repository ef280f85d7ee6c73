// knex's PostgreSQL dialect class, which ships without its own types (see prepared-client.ts).
declare module 'knex/lib/dialects/postgres/index.js' {
  const ClientPg: unknown;
  export default ClientPg;
}

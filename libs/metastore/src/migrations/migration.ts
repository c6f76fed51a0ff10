/** One schema change. Applied once, in `version` order, inside its own transaction. */
export interface Migration {
  /** Positive, unique, increasing; never renumber a released migration. */
  version: number;
  name: string;
  /** PostgreSQL DDL; runs on PGlite and on a PostgreSQL server alike. */
  sql: string;
}

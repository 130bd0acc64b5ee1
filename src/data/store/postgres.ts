/**
 * PostgreSQL through `pg`. int8 columns come back as JS numbers (every bigint column here holds
 * heights, timestamps or sequence numbers below 2^53; amounts are text).
 */
import pg from 'pg';
import { PostgresDialect } from 'kysely';

const INT8_OID = 20;

export function openPostgres(url: string, poolSize = 10): { pool: pg.Pool; dialect: PostgresDialect } {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A host that takes the TCP connection but never answers (a stopped server, a dropped
    // route) must fail the request (a 503) rather than hold it for the OS's minutes-long timeout.
    connectionTimeoutMillis: 5000,
    types: {
      getTypeParser: ((oid: number, format?: any) =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as any,
    },
  });
  // A client that loses its connection must not crash the process: an idle one is dropped by the
  // pool, a busy one fails its query (callers retry) and the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return { pool, dialect: new PostgresDialect({ pool }) };
}

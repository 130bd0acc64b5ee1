/** Starts a throwaway PostgreSQL cluster (left running) and prints three fresh database URLs. */
import { startPostgres } from '../../test/helpers/postgres.js';
const pg = await startPostgres();
console.log(await pg.createDatabase('fresh'));
console.log(await pg.createDatabase('killed'));
console.log(await pg.createDatabase('roles'));
process.exit(0);

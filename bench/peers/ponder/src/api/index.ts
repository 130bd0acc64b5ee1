/** GET /counts: the rows of each table, which the bench compares with what Flurry indexed. */
import { Hono } from 'hono';
import { count } from 'ponder';
import { db } from 'ponder:api';
import { block, deployment, nativeTransfer, tokenTransfer, transaction } from 'ponder:schema';

const app = new Hono();

app.get('/counts', async (c) => {
  const tables = { block, transaction, nativeTransfer, tokenTransfer, deployment };
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables))
    counts[name] = (await db.select({ n: count() }).from(table))[0]!.n;
  return c.json(counts);
});

export default app;

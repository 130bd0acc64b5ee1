/** Helpers of the chain-data end-to-end tests: waiting for the indexer, walking chainkit pages. */
import { call } from '../helpers/devnet.js';

/** Waits until the indexer has read everything the node's X and P indexes hold right now. */
export async function waitIndexed(nodeUrl: string, dataUrl: string): Promise<void> {
  const last = async (name: string) =>
    Number((await call(`${nodeUrl}/ext/index/${name}`, 'index.getLastAccepted', { encoding: 'hex' })).index);
  const want = { 'X/block': await last('X/block'), 'P/block': await last('P/block') };
  for (let i = 0; i < 400; i++) {
    const health = (await (await fetch(`${dataUrl}/v1/health-check`)).json()) as any;
    const cp = health.details.indexer.checkpoints;
    if (cp['X/block'] > want['X/block'] && cp['P/block'] > want['P/block']) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the indexer did not catch up');
}

/** Every item of a chainkit page iterator's `field`, and how many pages it took. */
export async function collectPages<T>(
  pages: AsyncIterable<any>,
  field: string,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    items.push(...(page.result[field] as T[]));
    count++;
  }
  return { items, pages: count };
}

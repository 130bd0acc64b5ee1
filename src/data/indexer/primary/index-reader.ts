/**
 * Reads an index API (`/ext/index/<chain>/<kind>`) as any client would: the last accepted
 * position and ranges of at most 1024 containers, hex-decoded with their checksum verified.
 */
import { utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { UpstreamInvalidError } from '../../internal/errors.js';
import { NodeRpcError, type NodeClient } from '../../internal/node-client.js';

export const MAX_RANGE = 1024;

/**
 * The node answers 404 at the index's path: it serves no index API (AvalancheGo and Flurry
 * with `--index-enabled false`), so there is nothing to read until it is started with one.
 */
export class IndexNotServedError extends Error {
  override readonly name = 'IndexNotServedError';
}

export interface Container {
  id: string;
  bytes: Uint8Array;
  timestampMs: number;
  index: number;
}

function decodeHex(text: string): Uint8Array {
  const all = utils.hexToBuffer(text);
  if (all.length < 4) throw new UpstreamInvalidError('container bytes too short');
  const body = all.subarray(0, all.length - 4);
  const sum = sha256(body).subarray(28);
  for (let i = 0; i < 4; i++)
    if (sum[i] !== all[all.length - 4 + i])
      throw new UpstreamInvalidError('container hex has a bad checksum');
  return body;
}

export function createIndexReader(node: NodeClient, name: string) {
  const path = `/ext/index/${name}`;
  return {
    name,
    /** Position of the last accepted container, or -1 while the index is empty. */
    async lastIndex(): Promise<number> {
      try {
        const c = await node.call<{ index: string }>(path, 'index.getLastAccepted', { encoding: 'hex' });
        return Number(c.index);
      } catch (err) {
        if (err instanceof NodeRpcError && /no containers/i.test(err.message)) return -1;
        if (err instanceof UpstreamInvalidError && err.httpStatus === 404)
          throw new IndexNotServedError(
            `node at ${node.url} serves no index API at ${path} (started with --index-enabled false?)`,
            { cause: err },
          );
        throw err;
      }
    },
    /** The container with id `id` (a block id of this index). */
    async byId(id: string): Promise<Container> {
      const c = await node.call<any>(path, 'index.getContainerByID', { id, encoding: 'hex' });
      return {
        id: String(c.id),
        bytes: decodeHex(String(c.bytes)),
        timestampMs: Date.parse(String(c.timestamp)),
        index: Number(c.index),
      };
    },
    async range(start: number, count: number): Promise<Container[]> {
      const res = await node.call<{ containers: any[] }>(path, 'index.getContainerRange', {
        startIndex: start,
        numToFetch: Math.min(count, MAX_RANGE),
        encoding: 'hex',
      });
      return (res.containers ?? []).map((c) => ({
        id: String(c.id),
        bytes: decodeHex(String(c.bytes)),
        timestampMs: Date.parse(String(c.timestamp)),
        index: Number(c.index),
      }));
    },
  };
}

export type IndexReader = ReturnType<typeof createIndexReader>;

/** `GET /v1/chains/{chainId}/blocks` (newest first, keyset pages) and `.../blocks/{blockId}`. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getBlock, latestBlocks } from '../../../evm/blocks.js';
import { resolveEvmChain } from '../../../evm/read-model.js';
import { ERROR_RESPONSES, PageToken, pageSize } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { EvmBlock, EvmBlockList } from './schemas.js';

const ChainParams = Type.Object({ chainId: Type.String() });
const BlockParams = Type.Object({ chainId: Type.String(), blockId: Type.String() });
const ListQuery = Type.Object(
  { pageToken: Type.Optional(PageToken), pageSize: pageSize(100, 10) },
  { additionalProperties: false },
);

export function blockRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    app.get(
      '/v1/chains/:chainId/blocks',
      {
        config: { computeUnits: WEIGHT.small },
        schema: {
          tags: ['EVM Blocks'],
          operationId: 'getLatestBlocks',
          summary: 'List the latest blocks',
          params: ChainParams,
          querystring: ListQuery,
          response: { 200: EvmBlockList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof ChainParams>;
        const q = request.query as Static<typeof ListQuery>;
        const chain = Number((await resolveEvmChain(evm.db, p.chainId)).evm_chain_id);
        const scope = ['blocks', chain];
        const after = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
        const page = await latestBlocks(evm.db, { chain, after, limit: q.pageSize });
        return {
          ...(page.next !== undefined ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
          blocks: page.items,
        };
      },
    );

    app.get(
      '/v1/chains/:chainId/blocks/:blockId',
      {
        config: { computeUnits: WEIGHT.small },
        schema: {
          tags: ['EVM Blocks'],
          operationId: 'getBlock',
          summary: 'Get a block by number or hash',
          params: BlockParams,
          response: { 200: EvmBlock, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof BlockParams>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        return getBlock(evm.db, Number(chain.evm_chain_id), p.blockId);
      },
    );
  };
}

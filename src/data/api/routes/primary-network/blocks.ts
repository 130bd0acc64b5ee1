/**
 * Primary-network blocks of the X- and P-chain: `GET …/blockchains/{blockchainId}/blocks` (newest
 * first, optional time window), `…/blocks/{blockId}` (by height or id) and
 * `…/nodes/{nodeId}/blocks` (the blocks a node proposed).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError } from '../../../internal/errors.js';
import { parseCb58Id, parseNodeIdParam, resolveChain, resolveNetwork } from '../../../networks.js';
import { chainInfo } from '../../repositories/format.js';
import { ERROR_RESPONSES, Network, PageToken, pageSize, storedInteger } from '../../schemas/common.js';
import { PrimaryNetworkBlock, PrimaryNetworkBlockList } from '../../schemas/primary-network-blocks.js';
import { WEIGHT, type RouteDeps } from '../deps.js';

const BlockchainId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'p-chain, x-chain or their ids',
});
const Params = Type.Object({ network: Network, blockchainId: BlockchainId });
const OneParams = Type.Object({
  network: Network,
  blockchainId: BlockchainId,
  blockId: Type.String({ minLength: 1, maxLength: 64, description: 'a block height or a block id' }),
});
const NodeParams = Type.Object({
  network: Network,
  blockchainId: BlockchainId,
  nodeId: Type.String({ minLength: 1, maxLength: 64 }),
});
const Query = Type.Object(
  {
    startTimestamp: Type.Optional(storedInteger()),
    endTimestamp: Type.Optional(storedInteger()),
    pageToken: Type.Optional(PageToken),
    pageSize: pageSize(100, 10),
  },
  { additionalProperties: false },
);

const HEIGHT = /^\d{1,15}$/;

export default async function primaryNetworkBlocksRoute(app: FastifyInstance, deps: RouteDeps) {
  function chainOf(params: { network: string; blockchainId: string }) {
    const network = resolveNetwork(deps.network, params.network);
    const chain = resolveChain(network, params.blockchainId, ['p-chain', 'x-chain']);
    return { network, chain, info: chainInfo(chain.blockchainId, network, params.network) };
  }
  /** One page of the chain's blocks newest first (those `nodeId` signed, when given). */
  async function listPage(
    params: { network: string; blockchainId: string },
    q: Static<typeof Query>,
    nodeId?: string,
  ) {
    const { chain, info } = chainOf(params);
    if (q.startTimestamp !== undefined && q.endTimestamp !== undefined && q.startTimestamp > q.endTimestamp)
      throw new InvalidParameterError('startTimestamp must not be after endTimestamp');
    const scope = [
      nodeId === undefined ? 'pn-blocks' : 'pn-blocks-by-node',
      chain.blockchainId,
      ...(nodeId === undefined ? [] : [nodeId]),
      q.startTimestamp,
      q.endTimestamp,
    ];
    const beforeHeight = q.pageToken ? deps.tokens.open<number>(scope, q.pageToken) : undefined;
    if (beforeHeight !== undefined && !Number.isSafeInteger(beforeHeight))
      throw new InvalidParameterError('invalid pageToken');
    const { blocks, next } = await deps.repo.blocks({
      chainId: chain.blockchainId,
      proposerNodeId: nodeId,
      startTimestamp: q.startTimestamp,
      endTimestamp: q.endTimestamp,
      beforeHeight,
      limit: q.pageSize,
    });
    return {
      ...(next !== undefined ? { nextPageToken: deps.tokens.issue(scope, next) } : {}),
      blocks,
      chainInfo: info,
    };
  }

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/blocks',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network Blocks'],
        operationId: 'listLatestPrimaryNetworkBlocks',
        summary: 'List the latest blocks of the P- or X-chain',
        params: Params,
        querystring: Query,
        response: { 200: PrimaryNetworkBlockList, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      listPage(request.params as Static<typeof Params>, request.query as Static<typeof Query>),
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/blocks/:blockId',
    {
      config: { computeUnits: WEIGHT.xl },
      schema: {
        tags: ['Primary Network Blocks'],
        operationId: 'getBlockById',
        summary: 'Get a P- or X-chain block by height or id',
        params: OneParams,
        response: { 200: PrimaryNetworkBlock, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof OneParams>;
      const { chain } = chainOf(params);
      const by = HEIGHT.test(params.blockId)
        ? { height: Number(params.blockId) }
        : { blockId: parseCb58Id(params.blockId, 'blockId') };
      return deps.repo.block(chain.blockchainId, by);
    },
  );

  app.get(
    '/v1/networks/:network/blockchains/:blockchainId/nodes/:nodeId/blocks',
    {
      config: { computeUnits: WEIGHT.medium },
      schema: {
        tags: ['Primary Network Blocks'],
        operationId: 'listPrimaryNetworkBlocksByNodeId',
        summary: 'List the P- or X-chain blocks a node proposed',
        params: NodeParams,
        querystring: Query,
        response: { 200: PrimaryNetworkBlockList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const params = request.params as Static<typeof NodeParams>;
      // The signer named by each block's proposervm certificate; blocks without one (unsigned,
      // options, or from a node that does not wrap its blocks) are no node's.
      return listPage(params, request.query as Static<typeof Query>, parseNodeIdParam(params.nodeId));
    },
  );
}

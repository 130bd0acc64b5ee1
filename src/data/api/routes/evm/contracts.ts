/**
 * `GET /v1/chains/{chainId}/contracts/{address}/deployments`: contracts deployed by an address;
 * `GET /v1/chains/{chainId}/addresses/{address}`: one contract's metadata (getContractMetadata).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseEvmAddress, resolveEvmChain } from '../../../evm/read-model.js';
import { ERROR_RESPONSES, PageToken, pageSize } from '../../schemas/common.js';
import { WEIGHT, type RouteDeps } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { Contract, ContractList } from './schemas.js';

const Params = Type.Object({ chainId: Type.String(), address: Type.String() });
const Query = Type.Object(
  { pageToken: Type.Optional(PageToken), pageSize: pageSize(100, 10) },
  { additionalProperties: false },
);

export function contractRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance, deps: RouteDeps) {
    app.get(
      '/v1/chains/:chainId/contracts/:address/deployments',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Contracts'],
          operationId: 'listContractDeployments',
          summary: 'List contracts deployed by an address (an EOA or a factory contract)',
          params: Params,
          querystring: Query,
          response: { 200: ContractList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const q = request.query as Static<typeof Query>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        const deployer = parseEvmAddress(p.address);
        const scope = ['deployments', Number(chain.evm_chain_id), deployer];
        const after = q.pageToken ? deps.tokens.open<[number, number]>(scope, q.pageToken) : undefined;
        const page = await evm.read.deployments({
          chain: Number(chain.evm_chain_id),
          deployer,
          after,
          limit: q.pageSize,
        });
        return {
          ...(page.next ? { nextPageToken: deps.tokens.issue(scope, page.next) } : {}),
          contracts: page.items,
        };
      },
    );

    app.get(
      '/v1/chains/:chainId/addresses/:address',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Contracts'],
          operationId: 'getContractMetadata',
          summary: 'Get the standard, name, symbol and deployment of a contract',
          params: Params,
          response: { 200: Contract, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        return evm.read.contract({ chain: Number(chain.evm_chain_id), address: parseEvmAddress(p.address) });
      },
    );
  };
}

/**
 * `GET /v1/chains`: the C-chain and every Subnet-EVM chain the indexer follows; `GET
 * /v1/chains/{chainId}` one of them (chainkit data.evm.chains.get, the real GetChainResponse);
 * `GET /v1/address/{address}/chains` the ones an address has activity on.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSES, StringEnum } from '../../schemas/common.js';
import { parseEvmAddress, resolveEvmChain, type ChainRow } from '../../../evm/read-model.js';
import { WEIGHT } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { AddressChainList, ChainInfo, ChainList } from './schemas.js';

export const NETWORKS = ['mainnet', 'fuji', 'testnet', 'local'] as const;

const Query = Type.Object(
  {
    network: Type.Optional(StringEnum(NETWORKS)),
    feature: Type.Optional(StringEnum(['nftIndexing', 'webhooks', 'teleporter'])),
  },
  { additionalProperties: false },
);

const Params = Type.Object({ chainId: Type.String() });
const AddressParams = Type.Object({ address: Type.String() });

/** The `network` filter: fuji and testnet match every test network (a local devnet is one). */
export function matchesNetwork(r: ChainRow, network: (typeof NETWORKS)[number] | undefined): boolean {
  if (!network) return true;
  if (network === 'mainnet') return r.network === 'mainnet';
  if (network === 'local') return r.network === 'local';
  return Number(r.is_testnet) === 1;
}

/** ChainInfo (and GetChainResponse, the same fields) of an indexed chain. */
function chainInfo(r: ChainRow) {
  return {
    chainId: String(r.evm_chain_id),
    status: 'OK',
    chainName: r.name,
    description: r.description,
    platformChainId: r.blockchain_id,
    subnetId: r.subnet_id,
    vmId: r.vm_id,
    vmName: 'EVM',
    rpcUrl: r.rpc_url,
    wsUrl: r.ws_url,
    isTestnet: Number(r.is_testnet) === 1,
    networkToken: {
      name: r.token_name,
      symbol: r.token_symbol,
      decimals: Number(r.token_decimals),
      description: `native token of ${r.name}`,
    },
    ...(r.multicall_address ? { utilityAddresses: { multicall: r.multicall_address } } : {}),
    private: false,
    enabledFeatures: JSON.parse(r.features) as string[],
  };
}

export function chainRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance) {
    app.get(
      '/v1/chains',
      {
        config: { computeUnits: WEIGHT.free },
        schema: {
          tags: ['EVM Chains'],
          operationId: 'supportedChains',
          summary: 'List the EVM chains this service indexes',
          querystring: Query,
          response: { 200: ChainList, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const q = request.query as Static<typeof Query>;
        const rows = await evm.read.chains();
        const chains = rows
          .filter((r) => matchesNetwork(r, q.network))
          .filter((r) => !q.feature || (JSON.parse(r.features) as string[]).includes(q.feature))
          .map(chainInfo);
        return { chains };
      },
    );

    app.get(
      '/v1/chains/:chainId',
      {
        config: { computeUnits: WEIGHT.free },
        schema: {
          tags: ['EVM Chains'],
          operationId: 'getChainInfo',
          summary: 'Get one EVM chain this service indexes, by EVM chain id or blockchain id',
          params: Params,
          response: { 200: ChainInfo, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof Params>;
        return chainInfo(await resolveEvmChain(evm.db, p.chainId));
      },
    );

    // chainkit's data.evm.chains.getAddressChains asks the same by its earlier path.
    for (const [path, operationId] of [
      ['/v1/address/:address/chains', 'listAddressChains'],
      ['/v1/chains/address/:address', 'getAddressChains'],
    ] as const)
      app.get(
        path,
        {
          config: { computeUnits: WEIGHT.medium },
          schema: {
            tags: ['EVM Chains'],
            operationId,
            ...(path === '/v1/address/:address/chains' ? {} : { deprecated: true }),
            summary:
              'List the indexed EVM chains on which an address sent or received transactions or token transfers',
            params: AddressParams,
            response: { 200: AddressChainList, ...ERROR_RESPONSES },
          },
        },
        async (request) => {
          const p = request.params as Static<typeof AddressParams>;
          const address = parseEvmAddress(p.address);
          // Every chain this service serves is indexed: none is left to list as unindexed.
          return {
            indexedChains: (await evm.read.addressChains(address)).map(chainInfo),
            unindexedChains: [],
          };
        },
      );
  };
}

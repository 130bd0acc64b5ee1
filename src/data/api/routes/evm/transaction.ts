/**
 * `GET /v1/chains/{chainId}/transactions/{txHash}`: one transaction with its transfers and
 * internal transactions from the store; its input and EIP-1559 fee caps, which the indexer does
 * not keep (inputs can be large), from the chain's node. `GET /v1/chains/{chainId}/contracts/
 * {address}/transactions:getDeployment`: the same for the transaction that deployed a contract.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError, UpstreamUnavailableError } from '../../../internal/errors.js';
import {
  contractsByAddress,
  parseEvmAddress,
  resolveEvmChain,
  type ChainRow,
} from '../../../evm/read-model.js';
import { transactionDetail } from '../../../evm/transaction-detail.js';
import { icmMessageInfoOfTx } from '../../../evm/icm.js';
import { checksumAddress, hexToBigInt } from '../../../evm/abi.js';
import { CURRENCIES, type Currency } from '../../api-keys.js';
import { ERROR_RESPONSES, StringEnum } from '../../schemas/common.js';
import { WEIGHT } from '../deps.js';
import type { EvmRouteDeps } from './deps.js';
import { callChainNode } from './node-rpc.js';
import { nativeTokenPrice } from './prices.js';
import { TransactionDetail } from './schemas.js';

const Params = Type.Object({ chainId: Type.String(), txHash: Type.String() });
const DeploymentParams = Type.Object({ chainId: Type.String(), address: Type.String() });
const DeploymentQuery = Type.Object(
  { currency: Type.Optional(StringEnum(CURRENCIES)) },
  { additionalProperties: false },
);

interface NodeTx {
  input: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
}

/** GetTransactionResponse of one transaction, priced in `currency` where a price is configured. */
async function transactionResponse(evm: EvmRouteDeps, chain: ChainRow, txHash: string, currency: Currency) {
  const detail = await transactionDetail(evm.db, Number(chain.evm_chain_id), txHash);
  const tx = await callChainNode<NodeTx | null>(
    chain,
    'eth_getTransactionByHash',
    [detail.native.txHash],
    `transaction ${detail.native.txHash}`,
  );
  if (!tx) throw new UpstreamUnavailableError(`the node does not know transaction ${detail.native.txHash}`);
  const price = nativeTokenPrice(chain, currency, evm.prices);
  const icm = await icmMessageInfoOfTx(evm.db, Number(chain.evm_chain_id), detail.native.txHash);
  return {
    ...(icm ? { teleporterMessageInfo: icm } : {}),
    erc20Transfers: detail.erc20Transfers,
    erc721Transfers: detail.erc721Transfers,
    erc1155Transfers: detail.erc1155Transfers,
    internalTransactions: detail.internalTransactions,
    networkTokenDetails: {
      networkToken: {
        name: chain.token_name,
        symbol: chain.token_symbol,
        decimals: Number(chain.token_decimals),
      },
      // The configured price source is one constant per currency: now and then alike.
      ...(price ? { currentPrice: price, historicalPrice: price } : {}),
    },
    nativeTransaction: {
      ...detail.native,
      input: tx.input,
      ...(tx.maxFeePerGas ? { maxFeePerGas: hexToBigInt(tx.maxFeePerGas).toString() } : {}),
      ...(tx.maxPriorityFeePerGas
        ? { maxPriorityFeePerGas: hexToBigInt(tx.maxPriorityFeePerGas).toString() }
        : {}),
    },
  };
}

export function transactionRoutes(evm: EvmRouteDeps) {
  return async function (app: FastifyInstance) {
    app.get(
      '/v1/chains/:chainId/transactions/:txHash',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Transactions'],
          operationId: 'getTransaction',
          summary: 'Get a transaction with its transfers and internal transactions',
          params: Params,
          response: { 200: TransactionDetail, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof Params>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        return transactionResponse(evm, chain, p.txHash, 'usd');
      },
    );

    app.get(
      '/v1/chains/:chainId/contracts/:address/transactions::getDeployment',
      {
        config: { computeUnits: WEIGHT.medium },
        schema: {
          tags: ['EVM Transactions'],
          operationId: 'getDeploymentTransaction',
          summary: 'Get the transaction that deployed a contract',
          params: DeploymentParams,
          querystring: DeploymentQuery,
          response: { 200: TransactionDetail, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const p = request.params as Static<typeof DeploymentParams>;
        const q = request.query as Static<typeof DeploymentQuery>;
        const chain = await resolveEvmChain(evm.db, p.chainId);
        const address = parseEvmAddress(p.address);
        const contract = (await contractsByAddress(evm.db, Number(chain.evm_chain_id), [address])).get(
          address,
        );
        if (!contract?.tx_hash)
          throw new NotFoundError(
            `no deployment of ${checksumAddress(address)} is indexed on chain ${chain.evm_chain_id}`,
          );
        return transactionResponse(evm, chain, contract.tx_hash, q.currency ?? 'usd');
      },
    );
  };
}

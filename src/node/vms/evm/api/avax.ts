/**
 * The C-chain's native (atomic) API at `/ext/bc/C/avax`: `avax.*` as real nodes serve it and
 * the spec's `native.*`. getUTXOs lists atomic UTXOs other chains exported to C (paged like
 * the reference), issueTx takes a signed ImportTx/ExportTx, and the status and tx lookups report
 * where a tx stands and the height of the block that carried it.
 */
import { utils } from '@avalabs/avalanchejs';
import { fromCb58, parseId, toCb58 } from '../../../../shared/encoding.js';
import type { Params } from '../../../rpc/params.js';
import {
  noIdWithAlias,
  parseStartIndex,
  serviceAddressOrFail,
  type AddressBook,
} from '../../components/service-address.js';
import { AvalancheEndpoint } from '../../../rpc/avalanche-endpoint.js';
import {
  decodeBytes,
  encodeBytes,
  encodingParam,
  UNSUPPORTED_IN_METHOD,
  type Encoding,
} from '../../../rpc/encoding-param.js';
import { fail } from '../../../rpc/errors.js';
import type { ChainContext } from '../../../chains/chain.js';
import { FLURRY_VERSION } from '../../../version.js';
import type { EvmChain } from '../evm-chain.js';
import type { AtomicMempool } from '../atomic/atomic-txs.js';

/** The most UTXOs one getUTXOs answer holds (the reference's maxUTXOsToFetch). */
export const MAX_UTXOS = 1024;

export function createAvaxApi(ctx: ChainContext, chain: EvmChain, mempool: AtomicMempool): AvalancheEndpoint {
  const network = ctx.config.network;
  const resolveChain = (text: string): string | undefined => {
    const c = ctx.chain(text);
    if (c) return c.blockchainID;
    try {
      fromCb58(text);
      return [network.xChainID, network.pChainID, network.cChainID].includes(text) ? text : undefined;
    } catch {
      return undefined;
    }
  };
  // coreth's ParseServiceAddress: a cb58 short id, or an address of this chain (X-…, P-… refused).
  const book: AddressBook = {
    hrp: network.hrp,
    chainId: chain.blockchainID,
    aliases: [...chain.aliases, chain.blockchainID],
    lookupChain: resolveChain,
    wrongChainWording: 'coreth',
  };
  const decodeTx = (text: string, encoding: Encoding): Uint8Array => {
    try {
      return decodeBytes(encoding, text);
    } catch (err) {
      fail(`problem decoding transaction: ${(err as Error).message}`);
    }
  };

  /**
   * The `txID` param, as the reference's typed `ids.ID` reads it: missing is the empty ID, and
   * the empty ID (also written out, `111…LpoYY`) is refused before any lookup (`errNilTxID`).
   */
  const txIdOf = (params: Params): Uint8Array => {
    const text = params.optionalId('txID');
    const id = text === undefined ? undefined : parseId(text);
    if (id === undefined || id.every((b) => b === 0)) fail('nil transaction ID');
    return id;
  };

  return new AvalancheEndpoint(`${chain.alias}/avax`)
    .registerAll('avax', {
      getUTXOs: (params) => {
        const addresses = params.strings('addresses');
        if (addresses.length === 0) fail('no addresses provided');
        if (addresses.length > MAX_UTXOS)
          fail(`number of addresses given, ${addresses.length}, exceeds maximum, ${MAX_UTXOS}`);
        const encoding = encodingParam(params);
        const sourceText = params.optionalString('sourceChain');
        if (!sourceText) fail('no source chain provided');
        const source = resolveChain(sourceText);
        if (!source) fail(`problem parsing source chainID "${sourceText}": ${noIdWithAlias(sourceText)}`);
        const addrs = addresses.map((text) => serviceAddressOrFail(book, text));
        const rawLimit = params.uint32('limit');
        const limit = rawLimit === 0 || rawLimit > MAX_UTXOS ? MAX_UTXOS : rawLimit;
        const after = parseStartIndex(book, params.object('startIndex'));
        const page = ctx.sharedMemory.list(source, chain.blockchainID, addrs, limit, after);
        return {
          numFetched: String(page.utxos.length),
          utxos: page.utxos.map((r) => {
            if (encoding === 'json') fail(`problem encoding utxo: ${UNSUPPORTED_IN_METHOD}`);
            return encodeBytes(encoding, r.bytes);
          }),
          endIndex: {
            address: utils.format('C', network.hrp, page.end.address),
            utxo: toCb58(page.end.inputId),
          },
          encoding,
        };
      },
      issueTx: async (params) => {
        const bytes = decodeTx(params.string('tx'), encodingParam(params));
        try {
          return { txID: toCb58(await mempool.issue(bytes)) };
        } catch (err) {
          fail((err as Error).message);
        }
      },
      getAtomicTxStatus: (params) => {
        const id = txIdOf(params);
        const stored = chain.store.atomicTx(id);
        if (stored) return { status: 'Accepted', blockHeight: String(stored.blockNumber) };
        return mempool.status(id);
      },
      getAtomicTx: (params) => {
        const id = txIdOf(params);
        const encoding = encodingParam(params);
        const encode = (bytes: Uint8Array) => {
          if (encoding === 'json') fail(UNSUPPORTED_IN_METHOD);
          return encodeBytes(encoding, bytes);
        };
        const stored = chain.store.atomicTx(id);
        if (stored) return { tx: encode(stored.bytes), encoding, blockHeight: String(stored.blockNumber) };
        // Pending or dropped: coreth serves any tx its mempool knows, without a block height.
        const known = mempool.getKnown(id);
        if (known) return { tx: encode(known.bytes), encoding };
        fail(`could not find tx ${toCb58(id)}`);
      },
      version: () => ({ version: `flurry/${FLURRY_VERSION}` }),
    })
    .aliasService('native', 'avax');
}

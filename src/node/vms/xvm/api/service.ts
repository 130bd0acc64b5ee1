/**
 * The X-chain JSON-RPC service (`avm.*`, also answering as `xvm.*`): handlers validate params,
 * call the VM or read its state, and format the answer the way the reference node does.
 */
import { AvalancheEndpoint } from '../../../rpc/avalanche-endpoint.js';
import {
  decodeBytes,
  encodeBytes,
  encodingParam,
  UNSUPPORTED_IN_METHOD,
  type Encoding,
} from '../../../rpc/encoding-param.js';
import { fail } from '../../../rpc/errors.js';
import { ParamsShapeError, type Params } from '../../../rpc/params.js';
import { EncodingError, fromCb58, parseId, toCb58 } from '../../../../shared/encoding.js';
import { decodeBlock } from '../block/standard-block.js';
import { MAX_ADDRESSES, MAX_UTXOS_TO_FETCH, NATIVE_ASSET } from '../constants.js';
import type { StoredBlock } from '../state/x-state.js';
import { readStoredUtxo, readTx } from '../txs/model.js';
import { IssueError, type XVM } from '../vm.js';
import {
  AddressError,
  formatAddress,
  parseServiceAddress,
  parseStartIndex,
  serviceAddressOrFail,
  type AddressBook,
  noIdWithAlias,
} from '../../components/service-address.js';
import { JsonFormatter } from './json.js';
import type { SharedMemory } from '../../components/shared-memory.js';
import type { DevnetClock } from '../../../clock.js';

export interface XServiceDeps {
  readonly vm: XVM;
  readonly book: AddressBook;
  readonly avaxAssetId: string;
  readonly txFee: bigint;
  readonly createAssetTxFee: bigint;
  readonly sharedMemory: SharedMemory;
  readonly clock: DevnetClock;
  /** cb58 id of a chain by alias or id (P, platform, C, evm, X…), for `sourceChain`. */
  resolveChain(aliasOrId: string): string | undefined;
}

/** cb58 of the all-zero id (`ids.Empty`), which the reference reads as no id at all. */
const EMPTY_ID = toCb58(new Uint8Array(32));

/** `txID` of getTx/getTxStatus: missing, empty or the all-zero id is the reference's `errNilTxID`. */
function parseTxId(params: Params): string {
  const id = params.optionalId('txID');
  if (id === undefined || id === EMPTY_ID) fail('nil transaction ID');
  return id;
}

export function createXService(deps: XServiceDeps): AvalancheEndpoint {
  const { vm, book } = deps;
  const json = new JsonFormatter(book.hrp);

  const address = (text: string): Uint8Array => serviceAddressOrFail(book, text);
  /** The deprecated balance calls wrap the address error once more, as the reference does. */
  const balanceAddress = (text: string): Uint8Array => {
    try {
      return parseServiceAddress(book, text);
    } catch (err) {
      if (err instanceof AddressError) fail(`problem parsing address '${text}': ${err.message}`);
      throw err;
    }
  };

  /** The asset alias ("AVAX") or any well-formed id, as the reference's lookup takes them. */
  const assetIdOf = (text: string): string => {
    if (text === NATIVE_ASSET.symbol) return deps.avaxAssetId;
    try {
      parseId(text);
    } catch {
      fail(`asset '${text}' not found`);
    }
    return text;
  };

  const formatBlock = (block: StoredBlock, encoding: Encoding) => {
    if (encoding !== 'json') return { block: encodeBytes(encoding, block.bytes), encoding };
    const decoded = decodeBlock(block.bytes);
    return { block: json.block(block.id, decoded, decoded.txs.map(readTx)), encoding };
  };

  /**
   * Fungible secp outputs of `addr`, as the deprecated balance calls count them: without
   * `includePartial` only outputs the address holds alone (one owner, whatever the threshold:
   * an output shared with another address is not the address's balance even when either may
   * spend it) whose lock time has passed, as the reference filters them.
   */
  const fungibleUtxos = (addr: Uint8Array, includePartial: boolean) => {
    const now = BigInt(deps.clock.nowSeconds());
    const out = [];
    for (const bytes of vm.state.utxos.allFor(addr)) {
      const utxo = readStoredUtxo(bytes);
      if (utxo.output.kind !== 'secpTransfer') continue;
      const { owners } = utxo.output;
      if (!includePartial && (owners.locktime > now || owners.addresses.length !== 1)) continue;
      out.push({ utxo, amount: utxo.output.amount });
    }
    return out;
  };

  const endpoint = new AvalancheEndpoint('X');
  endpoint.registerAll('avm', {
    getHeight: () => ({ height: vm.lastAccepted().height.toString() }),

    getTxFee: () => ({ txFee: deps.txFee.toString(), createAssetTxFee: deps.createAssetTxFee.toString() }),

    getAssetDescription: (params) => {
      const text = params.string('assetID');
      const id = text === NATIVE_ASSET.symbol ? deps.avaxAssetId : text;
      const asset = vm.state.asset(id);
      if (!asset) {
        // The reference's three refusals: a string that is neither an alias nor an id, an id no
        // accepted tx has (the database's `not found`), and a tx that creates no asset.
        // (A 32-byte id with its checksum is at most 50 characters: longer text is not decoded.)
        let isId: boolean;
        try {
          isId = id.length <= 50 && fromCb58(id).length === 32;
        } catch {
          isId = false;
        }
        if (!isId) fail(`asset '${text}' not found`);
        if (vm.state.tx(id) ?? vm.genesisTx(id)) fail("transaction doesn't create an asset");
        fail('not found');
      }
      return {
        assetID: asset.id,
        name: asset.name,
        symbol: asset.symbol,
        denomination: String(asset.denomination),
      };
    },

    getTx: (params) => {
      const id = parseTxId(params);
      const encoding = encodingParam(params);
      const bytes = vm.state.tx(id)?.bytes ?? vm.genesisTx(id);
      if (!bytes) fail('not found');
      if (encoding !== 'json') return { tx: encodeBytes(encoding, bytes), encoding };
      // The genesis tx's id is the asset id it was asked by, not the hash of the devnet's bytes.
      return { tx: { ...json.tx(readTx(bytes)), id }, encoding };
    },

    getTxStatus: (params) => ({ status: vm.status(parseTxId(params)) }),

    getBlock: (params) => {
      const text = params.optionalId('blockID');
      if (text === undefined) throw new ParamsShapeError('blockID: missing');
      const encoding = encodingParam(params);
      const block = vm.state.blockById(text);
      if (!block) fail(`couldn't get block with id ${text}: not found`);
      return formatBlock(block, encoding);
    },

    getBlockByHeight: (params) => {
      const height = params.uint64('height');
      const encoding = encodingParam(params);
      const block = vm.state.blockByHeight(height);
      if (!block) fail(`couldn't get block at height ${height}: not found`);
      return formatBlock(block, encoding);
    },

    issueTx: (params) => {
      const raw = params.string('tx');
      const encoding = encodingParam(params);
      let bytes: Uint8Array;
      try {
        bytes = decodeBytes(encoding, raw);
      } catch (err) {
        if (err instanceof EncodingError) fail(`problem decoding transaction: ${err.message}`);
        throw err;
      }
      try {
        return { txID: vm.issue(bytes) };
      } catch (err) {
        if (err instanceof IssueError) fail(err.message);
        throw err;
      }
    },

    getBalance: (params) => {
      const addr = balanceAddress(params.string('address'));
      const assetId = assetIdOf(params.string('assetID'));
      const includePartial = params.boolean('includePartial');
      let balance = 0n;
      const utxoIDs: { txID: string; outputIndex: number }[] = [];
      for (const { utxo, amount } of fungibleUtxos(addr, includePartial)) {
        if (toCb58(utxo.assetId) !== assetId) continue;
        balance += amount;
        utxoIDs.push({ txID: toCb58(utxo.txId), outputIndex: utxo.outputIndex });
      }
      return { balance: balance.toString(), utxoIDs };
    },

    getAllBalances: (params) => {
      // The reference reads `address`; @avalanche-sdk/client sends `addresses`. With neither, the
      // reference parses the empty address (`problem parsing address '': …`).
      const texts =
        params.has('address') || !params.has('addresses')
          ? [params.optionalString('address') ?? '']
          : params.strings('addresses');
      if (texts.length === 0) fail('no addresses provided');
      const includePartial = params.boolean('includePartial');
      const totals = new Map<string, bigint>();
      const seen = new Set<string>();
      for (const text of texts) {
        for (const { utxo, amount } of fungibleUtxos(balanceAddress(text), includePartial)) {
          const utxoKey = `${toCb58(utxo.txId)}:${utxo.outputIndex}`;
          if (seen.has(utxoKey)) continue;
          seen.add(utxoKey);
          const asset = toCb58(utxo.assetId);
          totals.set(asset, (totals.get(asset) ?? 0n) + amount);
        }
      }
      return {
        balances: [...totals].map(([asset, balance]) => ({
          asset: asset === deps.avaxAssetId ? NATIVE_ASSET.symbol : asset,
          balance: balance.toString(),
        })),
      };
    },

    getUTXOs: (params) => {
      const texts = params.strings('addresses');
      if (texts.length === 0) fail('no addresses provided');
      if (texts.length > MAX_ADDRESSES)
        fail(`number of addresses given, ${texts.length}, exceeds maximum, ${MAX_ADDRESSES}`);
      const encoding = encodingParam(params);
      const addrs = texts.map(address);
      let limit = params.uint32('limit');
      if (limit <= 0 || limit > MAX_UTXOS_TO_FETCH) limit = MAX_UTXOS_TO_FETCH;

      const after = parseStartIndex(book, params.object('startIndex'));

      const sourceText = params.optionalString('sourceChain');
      let source: string | undefined;
      if (sourceText !== undefined && sourceText !== '') {
        source = deps.resolveChain(sourceText);
        if (!source) fail(`problem parsing source chainID "${sourceText}": ${noIdWithAlias(sourceText)}`);
      }

      const page =
        source && source !== book.chainId
          ? deps.sharedMemory.list(source, book.chainId, addrs, limit, after)
          : vm.state.utxos.list(addrs, limit, after);
      const result: Record<string, unknown> = {
        numFetched: String(page.utxos.length),
        utxos: page.utxos.map((r) => {
          if (encoding === 'json')
            fail(`couldn't encode UTXO ${toCb58(r.inputId)} as string: ${UNSUPPORTED_IN_METHOD}`);
          return encodeBytes(encoding, r.bytes);
        }),
        endIndex: { address: formatAddress(book.hrp, page.end.address), utxo: toCb58(page.end.inputId) },
        encoding,
      };
      if (sourceText) result.sourceChain = source;
      return result;
    },
  });
  endpoint.aliasService('xvm', 'avm');
  return endpoint;
}

/**
 * Service addresses as the reference's APIs parse them (`avax.ParseServiceAddress`, and coreth's
 * copy of it for `/ext/bc/C/avax`): a bare cb58 short id, or `<alias>-<bech32>` where the alias
 * names this chain (any of its aliases or its cb58 id) and the hrp is the network's. Errors carry
 * the reference's wording; the one for an address of another chain differs between the two.
 */
import { utils } from '@avalabs/avalanchejs';
import { fromCb58, parseId } from '../../../shared/encoding.js';
import { fail } from '../../rpc/errors.js';
import type { Params } from '../../rpc/params.js';
import type { UtxoCursor } from './utxo-pager.js';

/**
 * The reference's chain-alias lookup failure (`ids.Aliaser.Lookup`: `ErrNoIDWithAlias` then the
 * alias). A node knows a chain by its aliases and its own id, so an unknown id fails the same way.
 */
export function noIdWithAlias(alias: string): string {
  return `there is no ID with alias: ${alias}`;
}

export class AddressError extends Error {
  override readonly name = 'AddressError';
}

export interface AddressBook {
  readonly hrp: string;
  readonly chainId: string;
  /** Every alias of this chain (`X`, `avm` or the id; `C`, `evm` or the id). */
  readonly aliases: readonly string[];
  /** cb58 id of another chain by alias, for the "wrong chain" message. */
  lookupChain(alias: string): string | undefined;
  /**
   * How the reference words an address of another chain: avalanchego's address manager (X, P)
   * `mismatched chainIDs: expected "<this>" but got "<other>"`, coreth (C)
   * `expected chainID to be "<this>" but was "<other>"`.
   */
  readonly wrongChainWording?: 'avalanchego' | 'coreth';
}

/** Parses a service address; throws AddressError with `couldn't parse address "…": …`. */
export function parseServiceAddress(book: AddressBook, text: string): Uint8Array {
  try {
    return parseAddress(book, text);
  } catch (err) {
    throw new AddressError(`couldn't parse address "${text}": ${(err as Error).message}`);
  }
}

/** parseServiceAddress, failing the call (-32000) with the reference's words. */
export function serviceAddressOrFail(book: AddressBook, text: string): Uint8Array {
  try {
    return parseServiceAddress(book, text);
  } catch (err) {
    if (err instanceof AddressError) fail(err.message);
    throw err;
  }
}

/**
 * getUTXOs' `startIndex`, read as the reference reads it: when either member is set both must
 * parse (`couldn't parse start index address "…": …`, `couldn't parse start index utxo: …`);
 * when neither is, the listing starts at the beginning.
 */
export function parseStartIndex(book: AddressBook, start: Params | undefined): UtxoCursor | undefined {
  if (!start) return undefined;
  const addressText = start.string('address');
  const utxoText = start.string('utxo');
  if (addressText === '' && utxoText === '') return undefined;
  let address: Uint8Array;
  try {
    address = parseServiceAddress(book, addressText);
  } catch (err) {
    if (!(err instanceof AddressError)) throw err;
    fail(`couldn't parse start index address "${addressText}": ${err.message}`);
  }
  try {
    return { address, inputId: parseId(utxoText) };
  } catch (err) {
    fail(`couldn't parse start index utxo: ${(err as Error).message}`);
  }
}

/** In the reference's order: separator, bech32, chain alias, hrp, length, then which chain. */
function parseAddress(book: AddressBook, text: string): Uint8Array {
  if (!text.includes('-')) {
    try {
      const raw = fromCb58(text);
      if (raw.length === 20) return raw;
    } catch {
      // not a short id: fall through to the bech32 error
    }
    throw new Error('no separator found in address');
  }
  const dash = text.indexOf('-');
  const alias = text.slice(0, dash);
  let hrp: string;
  let bytes: Uint8Array;
  try {
    [hrp, bytes] = utils.parseBech32(text.slice(dash + 1));
  } catch (err) {
    throw new Error((err as Error).message || 'invalid bech32 string', { cause: err });
  }
  const chain = book.aliases.includes(alias) ? book.chainId : book.lookupChain(alias);
  if (!chain) throw new Error(noIdWithAlias(alias));
  if (hrp !== book.hrp) throw new Error(`expected hrp "${book.hrp}" but got "${hrp}"`);
  if (bytes.length !== 20) throw new Error(`expected 20 bytes but got ${bytes.length}`);
  if (chain !== book.chainId) {
    throw new Error(
      book.wrongChainWording === 'coreth'
        ? `expected chainID to be "${book.chainId}" but was "${chain}"`
        : `mismatched chainIDs: expected "${book.chainId}" but got "${chain}"`,
    );
  }
  return bytes;
}

/** `X-<hrp>1…` */
export function formatAddress(hrp: string, address: Uint8Array, alias = 'X'): string {
  return utils.format(alias, hrp, address);
}

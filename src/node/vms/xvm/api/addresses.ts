/**
 * X-chain service addresses as the reference parses them: `<alias>-<bech32>` where the alias
 * names this chain (`X`, `avm` or its cb58 id) and the hrp is the network's, or a bare cb58
 * short id. Errors carry the reference's wording.
 */
import { utils } from '@avalabs/avalanchejs';
import { fromCb58 } from '../../../../shared/encoding.js';

export class AddressError extends Error {
  override readonly name = 'AddressError';
}

export interface AddressBook {
  readonly hrp: string;
  readonly chainId: string;
  /** Every alias of this chain (`X`, `avm`, the id). */
  readonly aliases: readonly string[];
  /** cb58 id of another chain by alias, for the "wrong chain" message. */
  lookupChain(alias: string): string | undefined;
}

/** Parses a service address; throws AddressError with `couldn't parse address "…": …`. */
export function parseServiceAddress(book: AddressBook, text: string): Uint8Array {
  try {
    return parseAddress(book, text);
  } catch (err) {
    throw new AddressError(`couldn't parse address "${text}": ${(err as Error).message}`);
  }
}

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
  if (!book.aliases.includes(alias)) {
    const other = book.lookupChain(alias);
    if (!other) throw new Error(`there is no ID with alias ${alias}`);
    throw new Error(`expected chainID to be "${book.chainId}" but was "${other}"`);
  }
  let hrp: string;
  let bytes: Uint8Array;
  try {
    [hrp, bytes] = utils.parseBech32(text.slice(dash + 1));
  } catch (err) {
    throw new Error((err as Error).message || 'invalid bech32 string', { cause: err });
  }
  if (hrp !== book.hrp) throw new Error(`expected hrp "${book.hrp}" but got "${hrp}"`);
  if (bytes.length !== 20) throw new Error(`expected 20 bytes but got ${bytes.length}`);
  return bytes;
}

/** `X-<hrp>1…` */
export function formatAddress(hrp: string, address: Uint8Array, alias = 'X'): string {
  return utils.format(alias, hrp, address);
}

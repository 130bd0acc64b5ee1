/** Turning P-chain values into the reference node's JSON shapes (64-bit integers as strings). */
import { utils, type OutputOwners } from '@avalabs/avalanchejs';
import { fail } from '../../../rpc/errors.js';
import { ParamsShapeError, emptyIdError } from '../../../rpc/params.js';
import { formatNodeId, fromCb58, toCb58 } from '../../../../shared/encoding.js';
import { serviceAddressOrFail, type AddressBook } from '../../components/service-address.js';

export function formatAddress(hrp: string, address: Uint8Array): string {
  return utils.format('P', hrp, address);
}

export function formatOwner(hrp: string, owner: OutputOwners) {
  return {
    locktime: owner.locktime.value().toString(),
    threshold: String(owner.threshold.value()),
    addresses: owner.addrs.map((a) => formatAddress(hrp, a.toBytes())),
  };
}

/**
 * `P-<hrp>1…` addresses (any alias of the P-chain) or raw cb58 short ids, as the reference parses
 * them. Each method bounds the list its own way: getUTXOs wants 1 to 1,024 addresses (`limit`
 * 'utxos'), getStake at most 256 (`limit` 'stake'), getBalance takes any number, none included.
 */
export function parseAddresses(
  texts: readonly string[],
  book: AddressBook,
  limit?: 'utxos' | 'stake',
): Uint8Array[] {
  if (limit === 'utxos' && texts.length === 0) fail('no addresses provided');
  if (limit === 'utxos' && texts.length > 1024)
    fail(`number of addresses given, ${texts.length}, exceeds maximum, 1024`);
  if (limit === 'stake' && texts.length > 256)
    fail(`${texts.length} addresses provided but this method can take at most 256`);
  return texts.map((t) => serviceAddressOrFail(book, t));
}

/**
 * An `ids.ID` param as the reference decodes it: absent (or null) is the empty id (so a lookup
 * answers "not found" and a subnet param means the Primary Network); a malformed one, `""`
 * included, fails to unmarshal.
 */
export function parseIdParam(text: string | undefined, what: string): Uint8Array {
  if (text === undefined) return new Uint8Array(32);
  if (text === '') throw emptyIdError(what);
  let b: Uint8Array;
  try {
    b = fromCb58(text);
  } catch (err) {
    throw new ParamsShapeError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (b.length !== 32) throw new ParamsShapeError(`${what}: expected 32 bytes but got ${b.length}`);
  return b;
}

export const cb58 = toCb58;

export function hex0x(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes).toString('hex');
}

export function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** ppm → the reference's "2.0000" percent string. */
export function percent(ppm: number): string {
  return (ppm / 10_000).toFixed(4);
}

/** NodeID strings by raw id: cb58 with its checksum costs ~50 µs, and validator lists repeat. */
const nodeIdText = new Map<string, string>();

export function nodeIdString(nodeId: Uint8Array): string {
  const key = Buffer.from(nodeId).toString('hex');
  let text = nodeIdText.get(key);
  if (text === undefined) {
    text = formatNodeId(nodeId);
    if (nodeIdText.size >= 20_000) nodeIdText.delete(nodeIdText.keys().next().value!);
    nodeIdText.set(key, text);
  }
  return text;
}

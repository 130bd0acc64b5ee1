/**
 * Decides whether a validator signs a Warp message, and signs it. Each chain registers the rule
 * for messages from itself (EVM chains: messages sent through the Warp precompile and accepted
 * block hashes; the P-chain: the ACP-77 L1 messages with their justifications). A message from a
 * chain with no rule, from another network, or refused by its rule is not signed.
 */
import { blsSign } from '../../shared/crypto/bls.js';
import { fromCb58, toCb58 } from '../../shared/encoding.js';
import { parseUnsignedMessage, type UnsignedMessage } from './unsigned-message.js';

/** Makes the BLS signature once a message is approved (the node passes its signing pool). */
export type SignFn = (secretKey: Uint8Array, message: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/** Throws (with the reason) when the chain's validators must not sign the message. */
export type WarpVerifier = (message: UnsignedMessage, justification: Uint8Array) => void | Promise<void>;

export class WarpSignError extends Error {
  override readonly name = 'WarpSignError';
}

export class WarpSigner {
  // Rules by the source chain ID in hex: every request looks its rule up, and cb58-encoding the
  // chain ID per request cost more than the lookup itself.
  private readonly verifiers = new Map<string, WarpVerifier>();

  constructor(
    private readonly networkID: number,
    private readonly signBytes: SignFn = blsSign,
  ) {}

  /** Registers the signing rule for messages whose source is `chainID` (cb58). */
  register(chainID: string, verifier: WarpVerifier): void {
    this.verifiers.set(hexOf(chainID), verifier);
  }

  has(chainID: string): boolean {
    return this.verifiers.has(hexOf(chainID));
  }

  unregister(chainID: string): void {
    this.verifiers.delete(hexOf(chainID));
  }

  /** Verifies the message per its source chain's rule and signs it with `secretKey`. */
  async sign(
    secretKey: Uint8Array,
    messageBytes: Uint8Array,
    justification: Uint8Array,
  ): Promise<Uint8Array> {
    let message: UnsignedMessage;
    try {
      message = parseUnsignedMessage(messageBytes);
    } catch (err) {
      throw new WarpSignError(`cannot parse warp message: ${(err as Error).message}`);
    }
    if (message.networkID !== this.networkID) {
      throw new WarpSignError(
        `wrong network ID: message has ${message.networkID}, this network is ${this.networkID}`,
      );
    }
    const verifier = this.verifiers.get(Buffer.from(message.sourceChainID).toString('hex'));
    if (!verifier) {
      throw new WarpSignError(
        `source chain ${toCb58(message.sourceChainID)} is not a chain this node validates`,
      );
    }
    try {
      await verifier(message, justification);
    } catch (err) {
      throw new WarpSignError(`refusing to sign: ${(err as Error).message}`);
    }
    return this.signBytes(secretKey, messageBytes);
  }
}

function hexOf(cb58ChainID: string): string {
  return Buffer.from(fromCb58(cb58ChainID)).toString('hex');
}

/**
 * Verifies signed Warp messages the way a receiving Subnet-EVM/coreth chain does: right network,
 * then the signers' BitSetSignature against the canonical validator set of the source chain's
 * subnet at the P-chain's current height (the node's single-node stand-in for the proposer's
 * P-chain height) — or of the receiving chain's own subnet when the source is the Primary
 * Network (unless `requirePrimaryNetworkSigners`) or the P-chain itself.
 */
import type { ChainContext } from '../../../chains/chain.js';
import type { PlatformChain } from '../../platformvm/chain.js';
import { canonicalValidatorSet, verifyBitSetSignature } from '../../../../shared/warp/index.js';
import { fromCb58 } from '../../../../shared/encoding.js';
import type { SignedWarpMessage } from './predicate.js';

export interface WarpVerifierOptions {
  readonly networkID: number;
  /** The receiving chain's subnet (32 bytes). */
  readonly subnetID: Uint8Array;
  readonly quorumNumerator: bigint;
  readonly requirePrimaryNetworkSigners: boolean;
}

const ZERO = new Uint8Array(32);
const isZero = (b: Uint8Array) => b.every((x) => x === 0);

export class WarpMessageVerifier {
  constructor(
    private readonly ctx: ChainContext,
    private readonly options: WarpVerifierOptions,
  ) {}

  private platform(): PlatformChain {
    const p = this.ctx.chain('P') as PlatformChain | undefined;
    if (!p) throw new Error('the P-chain is not running');
    return p;
  }

  /** The subnet whose validators must have signed a message from `sourceChainID`. */
  signingSubnet(sourceChainID: Uint8Array): Uint8Array {
    if (isZero(sourceChainID)) return this.options.subnetID; // the P-chain
    const record = this.platform().vm.state.chain(sourceChainID);
    let sourceSubnet = record?.subnet;
    if (!sourceSubnet) {
      const network = this.ctx.config.network;
      const source = Buffer.from(sourceChainID);
      if ([network.xChainID, network.cChainID].some((id) => source.equals(Buffer.from(fromCb58(id)))))
        sourceSubnet = ZERO;
    }
    if (!sourceSubnet) throw new Error('unknown source chain');
    if (isZero(sourceSubnet) && !this.options.requirePrimaryNetworkSigners) return this.options.subnetID;
    return sourceSubnet;
  }

  /** Throws with the reason when the message is not validly signed. */
  verify(message: SignedWarpMessage): void {
    if (message.unsigned.networkID !== this.options.networkID)
      throw new Error(`wrong network ID ${message.unsigned.networkID}`);
    const subnet = this.signingSubnet(message.unsigned.sourceChainID);
    const vm = this.platform().vm;
    const validators = vm.state.validators.at(subnet, vm.height());
    const set = canonicalValidatorSet(
      validators.map((v) => ({
        nodeID: Buffer.from(v.nodeId).toString('hex'),
        publicKey: v.publicKey,
        weight: v.weight,
      })),
    );
    verifyBitSetSignature(
      message.unsigned.bytes,
      { signers: message.signers, signature: message.signature },
      set,
      this.options.quorumNumerator,
    );
  }
}

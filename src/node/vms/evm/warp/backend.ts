/**
 * What an EVM chain's validators sign (registered with the node's WarpSigner for the chain):
 * messages sent through its Warp precompile — found in the accepted `SendWarpMessage` logs, so a
 * message becomes signable exactly when its block is accepted and stays so across restarts —
 * and Hash payloads naming its accepted blocks. Anything else is refused.
 */
import { bytesToBigInt } from '@ethereumjs/util';
import type { ChainContext } from '../../../chains/chain.js';
import { toCb58 } from '../../../../shared/encoding.js';
import { hashPayload } from '../../../warp/accepted-block-rule.js';
import type { UnsignedMessage } from '../../../warp/unsigned-message.js';
import type { EvmChain } from '../evm-chain.js';
import { SEND_WARP_MESSAGE, WARP_ADDRESS } from './precompile.js';

const WARP = Buffer.from(WARP_ADDRESS.slice(2), 'hex');

export class WarpBackend {
  constructor(
    private readonly ctx: ChainContext,
    private readonly chain: EvmChain,
  ) {}

  /** The unsigned bytes of an accepted message sent through the precompile, by message id. */
  messageById(id: Uint8Array): Uint8Array | undefined {
    const [found] = this.chain.store.queryLogs({
      fromBlock: 0n,
      toBlock: this.chain.latest.number,
      addresses: [WARP],
      topics: [[SEND_WARP_MESSAGE], null, [id]],
      limit: 1,
    });
    if (!found) return undefined;
    const data = found.data;
    if (data.length < 64) return undefined;
    const length = Number(bytesToBigInt(data.subarray(32, 64)));
    return data.slice(64, 64 + length);
  }

  isAcceptedBlock(hash: Uint8Array): boolean {
    return this.chain.store.numberOfHash(hash) !== undefined;
  }

  /** The signing rule (throws the reason to refuse). */
  verify = (message: UnsignedMessage): void => {
    if (this.messageById(message.id)) return;
    const hash = hashPayload(message.payload);
    if (hash) {
      if (this.isAcceptedBlock(hash)) return;
      throw new Error(`block ${toCb58(hash)} is not accepted on this chain`);
    }
    throw new Error("message was not sent through this chain's Warp precompile in an accepted block");
  };

  register(): void {
    this.ctx.warp.register(this.chain.blockchainID, this.verify);
  }
}

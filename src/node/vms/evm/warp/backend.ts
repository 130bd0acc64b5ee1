/**
 * What an EVM chain's validators sign (registered with the node's WarpSigner for the chain):
 * messages sent through its Warp precompile — found in the accepted `SendWarpMessage` logs, so a
 * message becomes signable exactly when its block is accepted and stays so across restarts —
 * Hash payloads naming its accepted blocks, and (on Subnet-EVM chains, which track their
 * validators' uptime) subnet-evm's off-chain `ValidatorUptime` messages: an AddressedCall with
 * an empty source carrying {validationID, totalUptime}, signed when the validator has been seen
 * up at least that many seconds — what a proof-of-stake validator manager asks for to pay
 * rewards. Anything else is refused.
 */
import { bytesToBigInt } from '@ethereumjs/util';
import type { ChainContext } from '../../../chains/chain.js';
import { toCb58 } from '../../../../shared/encoding.js';
import { hashPayload } from '../../../warp/accepted-block-rule.js';
import type { UnsignedMessage } from '../../../warp/unsigned-message.js';
import type { EvmChain } from '../evm-chain.js';
import { SEND_WARP_MESSAGE, WARP_ADDRESS } from './precompile.js';
import { parseAddressedCall } from './predicate.js';

/** Seconds a validation has been seen up, or undefined when the chain does not know it. */
export type UptimeSource = (validationID: Uint8Array) => number | undefined;

/** subnet-evm `warp/messages`: codec version 0, type 0, then validationID and totalUptime. */
function parseValidatorUptime(
  payload: Uint8Array,
): { validationID: Uint8Array; totalUptime: bigint } | undefined {
  if (payload.length !== 46) return undefined;
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (view.getUint16(0) !== 0 || view.getUint32(2) !== 0) return undefined;
  return { validationID: payload.slice(6, 38), totalUptime: view.getBigUint64(38) };
}

const WARP = Buffer.from(WARP_ADDRESS.slice(2), 'hex');

export class WarpBackend {
  private uptime?: UptimeSource;

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

  /** Lets the chain's validators sign ValidatorUptime messages, from this uptime view. */
  signUptimesFrom(source: UptimeSource): void {
    this.uptime = source;
  }

  /** The signing rule (throws the reason to refuse), in the reference backend's order. */
  verify = (message: UnsignedMessage): void => {
    if (this.messageById(message.id)) return;
    const hash = hashPayload(message.payload);
    if (hash) {
      if (this.isAcceptedBlock(hash)) return;
      throw new Error(`block ${toCb58(hash)} is not accepted on this chain`);
    }
    const call = parseAddressedCall(message.payload);
    const uptime = call && this.uptime ? parseValidatorUptime(call.payload) : undefined;
    if (call && uptime && this.uptime) {
      if (call.sourceAddress.length !== 0)
        throw new Error('source address should be empty for offchain addressed messages');
      const seconds = this.uptime(uptime.validationID);
      const id = toCb58(uptime.validationID);
      if (seconds === undefined) throw new Error(`failed to get uptime: validationID ${id} not found`);
      if (BigInt(seconds) < uptime.totalUptime)
        throw new Error(
          `current uptime ${seconds} is less than queried uptime ${uptime.totalUptime} for validationID ${id}`,
        );
      return;
    }
    throw new Error("message was not sent through this chain's Warp precompile in an accepted block");
  };

  register(): void {
    this.ctx.warp.register(this.chain.blockchainID, this.verify);
  }
}

/**
 * The Warp messages L1 txs carry, as the reference's warp_verifier.go checks them before the tx
 * executes, and the manager's messages parsed and matched against the L1's conversion.
 */
import { pvmSerial } from '@avalabs/avalanchejs';
import { toCb58 } from '../../../../shared/encoding.js';
import type { ParsedTx } from '../codec.js';
import {
  WarpError,
  parseAddressedCall,
  parseL1ValidatorWeight,
  parseRegisterL1Validator,
  parseWarpMessage,
  verifyWarpSignature,
} from '../warp/warp-message.js';
import type { ExecEnv } from './env.js';
import { eq, fail } from './base-checks.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** A Warp message's parts, parsed (its refusals in this node's words). */
export function managerMessage(bytes: Uint8Array) {
  return wrapWarp(() => {
    const msg = parseWarpMessage(bytes);
    const call = parseAddressedCall(msg.payload);
    return { msg, call };
  });
}

export function wrapWarp<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WarpError) fail(err.message);
    throw err;
  }
}

/** The Warp message a tx carries, if any (RegisterL1ValidatorTx, SetL1ValidatorWeightTx). */
function warpMessageOf(tx: ParsedTx): Uint8Array | undefined {
  const u = tx.unsigned as unknown;
  if (pvmSerial.isRegisterL1ValidatorTx(u as never) || pvmSerial.isSetL1ValidatorWeightTx(u as never))
    return (u as pvmSerial.RegisterL1ValidatorTx).message.toBytes().subarray(4);
  return undefined;
}

/**
 * The reference's `VerifyWarpMessages`, made before the tx executes: the message is signed by
 * enough of the validators of its source chain's subnet. A source chain this P-chain has no record
 * of is taken to be the L1's own (its manager on a chain the P-chain did not create), the L1 the
 * message names.
 */
export function verifyWarpMessages(tx: ParsedTx, env: ExecEnv): void {
  const bytes = warpMessageOf(tx);
  if (!bytes) return;
  const msg = wrapWarp(() => parseWarpMessage(bytes));
  const chain = env.state.chain(msg.sourceChainId);
  const signingSubnet = chain?.subnet ?? namedL1(tx, env, msg);
  if (!signingSubnet) fail(`problem retrieving blockchain "${toCb58(msg.sourceChainId)}": not found`);
  wrapWarp(() => verifyWarpSignature(msg, env.network.networkID, env.state.validators.at(signingSubnet)));
}

/** The L1 a manager's message is about, when its payload says. */
function namedL1(
  tx: ParsedTx,
  env: ExecEnv,
  msg: ReturnType<typeof parseWarpMessage>,
): Uint8Array | undefined {
  try {
    const call = parseAddressedCall(msg.payload);
    if (pvmSerial.isRegisterL1ValidatorTx(tx.unsigned as never))
      return parseRegisterL1Validator(call.payload).subnetId;
    const v = env.state.l1Validator(parseL1ValidatorWeight(call.payload).validationId);
    return v && v.status !== 'removed' ? v.subnet : undefined;
  } catch (err) {
    if (err instanceof WarpError) return undefined;
    throw err;
  }
}

/** `verifyL1Conversion`: the message comes from the chain and address that manage the L1. */
export function verifyL1Conversion(
  env: ExecEnv,
  subnetId: Uint8Array,
  m: ReturnType<typeof managerMessage>,
): void {
  const subnet = env.state.subnet(subnetId);
  if (!subnet?.conversionId || !subnet.managerChain || !subnet.managerAddress)
    fail(`could not load subnet conversion for ${toCb58(subnetId)} with: not found`);
  if (!eq(m.msg.sourceChainId, subnet.managerChain))
    fail(
      `wrong warp message source chain ID expected ${toCb58(subnet.managerChain)} but had ${toCb58(m.msg.sourceChainId)}`,
    );
  if (!eq(m.call.sourceAddress, subnet.managerAddress))
    fail(
      `wrong warp message source address expected 0x${hex(subnet.managerAddress)} but got 0x${hex(m.call.sourceAddress)}`,
    );
}

/**
 * Helpers of the `@avalanche-sdk/client` wallet tests: the P-chain's clock and fee read through
 * the wallet's own P-chain client, as an SDK user would read them.
 */
import { pvm, type Common } from '@avalabs/avalanchejs';

/** The P-chain's current time in seconds (`platform.getTimestamp`). */
export async function pChainTime(wallet: any): Promise<bigint> {
  return BigInt(Date.parse((await wallet.pChain.getTimestamp()).timestamp) / 1000);
}

/** The P-chain fee the node requires of this tx now: its complexity at the current gas price. */
export async function pChainFee(wallet: any, tx: Common.UnsignedTx): Promise<bigint> {
  const { weights } = await wallet.pChain.getFeeConfig();
  const { price } = await wallet.pChain.getFeeState();
  return pvm.calculateFee(tx.getTx(), weights, price);
}

/**
 * coreth's refusals of a message before it runs (core/error.go, as state_transition.go's preCheck
 * and buyGas word them), in one place: eth_call and eth_estimateGas map the engine's refusals to
 * them, and block replays check them first in coreth's order. Addresses are checksummed hex.
 */

export const nonceTooHigh = (address: string, tx: bigint, state: bigint): string =>
  `nonce too high: address ${address}, tx: ${tx} state: ${state}`;

export const nonceTooLow = (address: string, tx: bigint, state: bigint): string =>
  `nonce too low: address ${address}, tx: ${tx} state: ${state}`;

export const insufficientFunds = (address: string, have: bigint | string, want: bigint | string): string =>
  `insufficient funds for gas * price + value: address ${address} have ${have} want ${want}`;

export const feeCapBelowBaseFee = (
  address: string,
  feeCap: bigint | string,
  baseFee: bigint | string,
): string =>
  `max fee per gas less than block base fee: address ${address}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`;

/**
 * Multicall3's canonical address (github.com/mds1/multicall): the same on every chain it is
 * deployed to, by a presigned transaction. The node puts the contract in the C-chain's genesis;
 * the data platform reports it as a chain's `utilityAddresses.multicall` where code is there.
 */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

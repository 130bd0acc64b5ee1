/**
 * The chains every node runs, in start order. P first: the other chains read the validator set
 * and subnets from it.
 */
import type { Chain, ChainContext } from './chain.js';
import { createCChain } from '../vms/evm/c-chain.js';
import { createPlatformChain } from '../vms/platformvm/chain.js';
import { createXChain } from '../vms/xvm/index.js';

export type ChainFactory = (context: ChainContext) => Promise<Chain>;

export const PRIMARY_CHAIN_FACTORIES: ChainFactory[] = [createPlatformChain, createXChain, createCChain];

/**
 * The chains every node runs, in start order. P first: the other chains read the validator set
 * and subnets from it.
 */
import type { Chain, ChainContext } from './chain.js';
import { createXChain } from '../vms/xvm/index.js';

export type ChainFactory = (context: ChainContext) => Promise<Chain>;

export const PRIMARY_CHAIN_FACTORIES: ChainFactory[] = [createXChain];

/**
 * The two pure allow-list precompiles: ContractDeployerAllowList (0x0200…0000: who may create
 * contracts, checked against tx.origin) and TxAllowList (0x0200…0002: who may send transactions).
 * Both expose only the IAllowList ABI; the chain enforces them (see subnet-evm-chain.ts).
 */
import { createAddressFromString } from '@ethereumjs/util';
import { allowListFunctions, allowListJson, configureAllowList, parseAllowListConfig } from './allow-list.js';
import { dispatcher } from './contract.js';
import { PRECOMPILE_ADDRESSES, type SubnetPrecompileModule } from './subnet-module.js';

function allowListOnly(
  configKey: 'contractDeployerAllowListConfig' | 'txAllowListConfig',
  activation: number,
  json: Record<string, unknown>,
): SubnetPrecompileModule {
  const address = createAddressFromString(PRECOMPILE_ADDRESSES[configKey]);
  const cfg = parseAllowListConfig(json, configKey);
  return {
    address: PRECOMPILE_ADDRESSES[configKey],
    configKey,
    activation,
    configJson: allowListJson(cfg),
    run: dispatcher(allowListFunctions(address)),
    configure: (state) => configureAllowList(state, address, cfg),
  };
}

export const contractDeployerAllowList = (activation: number, json: Record<string, unknown>) =>
  allowListOnly('contractDeployerAllowListConfig', activation, json);

export const txAllowList = (activation: number, json: Record<string, unknown>) =>
  allowListOnly('txAllowListConfig', activation, json);

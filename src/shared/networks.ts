/**
 * Network identities: everything that differs between `local`, `fuji` and `mainnet` from a
 * client's point of view. The ids are the well-known ones public clients hard-code, so that a
 * wallet pointed at a Flurry devnet started as `--network fuji` sees the chain ids it expects.
 */

export type NetworkName = 'local' | 'fuji' | 'mainnet';

export interface NetworkIdentity {
  readonly name: NetworkName;
  /** Platform network id (12345 local, 5 fuji, 1 mainnet). */
  readonly networkID: number;
  /** Bech32 human-readable part of X/P/C addresses. */
  readonly hrp: string;
  /** cb58 ids of the primary-network chains. */
  readonly pChainID: string;
  readonly xChainID: string;
  readonly cChainID: string;
  /** cb58 id of the native (staking/fee) asset. */
  readonly avaxAssetID: string;
  /** EVM chain id of the C-chain. */
  readonly evmChainID: number;
  /** X-chain fees in nAVAX. */
  readonly xTxFee: bigint;
  readonly xCreateAssetTxFee: bigint;
  /** Minimum price of the P-chain L1 validator continuous fee, in nAVAX per second. */
  readonly validatorFeeMinPrice: bigint;
  /**
   * How fast that price doubles while more L1 validators than the target are active: the
   * reference's `ExcessConversionConstant` (local doubles every minute, fuji every hour, mainnet
   * every day), reported by `platform.getValidatorFeeConfig`.
   */
  readonly validatorFeeExcessConversionConstant: bigint;
  /** Smallest primary-network validator and delegator stakes, in nAVAX (`platform.getMinStake`). */
  readonly minValidatorStake: bigint;
  readonly minDelegatorStake: bigint;
}

/**
 * The Primary Network's staking caps, the same on every network: a validator's weight (own stake
 * plus what is delegated to it) may reach this multiple of its own stake, and never this much.
 */
export const MAX_VALIDATOR_WEIGHT_FACTOR = 5n;
export const MAX_VALIDATOR_STAKE = 3_000_000n * 1_000_000_000n;

/**
 * What can still be delegated to a Primary Network validator with `own` stake and `delegated`
 * to it now: up to the P-chain's maximum weight (`MAX_VALIDATOR_WEIGHT_FACTOR` × own, at most
 * `MAX_VALIDATOR_STAKE`), never below 0.
 */
export function delegationCapacity(own: bigint, delegated: bigint): bigint {
  const byFactor = own * MAX_VALIDATOR_WEIGHT_FACTOR;
  const maxWeight = byFactor < MAX_VALIDATOR_STAKE ? byFactor : MAX_VALIDATOR_STAKE;
  const left = maxWeight - own - delegated;
  return left > 0n ? left : 0n;
}

/** The P-chain id and the primary network's subnet id are both the empty id. */
export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

const MILLI_AVAX = 1_000_000n;
const AVAX = 1_000_000_000n;

export const NETWORKS: Record<NetworkName, NetworkIdentity> = {
  local: {
    name: 'local',
    networkID: 12345,
    hrp: 'local',
    pChainID: PRIMARY_NETWORK_ID,
    xChainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    cChainID: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    avaxAssetID: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    evmChainID: 43112,
    xTxFee: MILLI_AVAX,
    xCreateAssetTxFee: MILLI_AVAX,
    validatorFeeMinPrice: 1n,
    validatorFeeExcessConversionConstant: 865_617n,
    minValidatorStake: 2_000n * AVAX,
    minDelegatorStake: 25n * AVAX,
  },
  fuji: {
    name: 'fuji',
    networkID: 5,
    hrp: 'fuji',
    pChainID: PRIMARY_NETWORK_ID,
    xChainID: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainID: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    avaxAssetID: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    evmChainID: 43113,
    xTxFee: MILLI_AVAX,
    xCreateAssetTxFee: 10n * MILLI_AVAX,
    validatorFeeMinPrice: 512n,
    validatorFeeExcessConversionConstant: 51_937_021n,
    // Fuji lets anyone validate or delegate with 1 AVAX.
    minValidatorStake: AVAX,
    minDelegatorStake: AVAX,
  },
  mainnet: {
    name: 'mainnet',
    networkID: 1,
    hrp: 'avax',
    pChainID: PRIMARY_NETWORK_ID,
    xChainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainID: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    avaxAssetID: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    evmChainID: 43114,
    xTxFee: MILLI_AVAX,
    xCreateAssetTxFee: 10n * MILLI_AVAX,
    validatorFeeMinPrice: 512n,
    validatorFeeExcessConversionConstant: 1_246_488_515n,
    minValidatorStake: 2_000n * AVAX,
    minDelegatorStake: 25n * AVAX,
  },
};

/** Accepts the names users type: `testnet` is the real services' word for fuji. */
export function networkByName(name: string): NetworkIdentity | undefined {
  const key = name.toLowerCase() === 'testnet' ? 'fuji' : name.toLowerCase();
  return (NETWORKS as Record<string, NetworkIdentity>)[key];
}

/** Name the node reports for a network id (`info.getNetworkName`), as the reference does. */
export function networkNameOf(networkID: number): string {
  switch (networkID) {
    case 1:
      return 'mainnet';
    case 5:
      return 'fuji';
    case 12345:
      return 'local';
    default:
      return `network-${networkID}`;
  }
}

/** The well-known prefunded test key ("ewoq") of local networks. */
export const EWOQ_PRIVATE_KEY_HEX = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';

/** Well-known VM ids (cb58) and the aliases the reference node gives them. */
export const VM_IDS = {
  avm: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq',
  platform: '11111111111111111111111111111111LpoYY',
  evm: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6',
  subnetEvm: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
} as const;

/** The reference node version Flurry's APIs correspond to (reported by info.getNodeVersion). */
export const COMPATIBLE_NODE_VERSION = 'avalanchego/1.14.0';
export const RPC_PROTOCOL_VERSION = '42';

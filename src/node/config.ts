/** The node's configuration, validated once at startup (see src/cli/options.ts). */
import type { NetworkIdentity } from '../shared/networks.js';
import type { TxPoolLimits } from './vms/evm/txpool/limits.js';

/** The node's store, inside the data dir. */
export const NODE_DB_FILE = 'node.db';

export interface NodeConfig {
  readonly network: NetworkIdentity;
  /** Directory of the node's durable state. */
  readonly dataDir: string;
  readonly seed: string;
  readonly validators: number;
  /** 0: build a block as soon as transactions arrive; otherwise build every `blockTimeMs`. */
  readonly blockTimeMs: number;
  readonly host: string;
  readonly port: number;
  readonly indexEnabled: boolean;
  readonly indexAllowIncomplete: boolean;
  readonly logLevel: string;
  /** The EVM `debug_` namespace (on in the devnet, off on public nodes). */
  readonly debugApi: boolean;
  /** C-chain eth_getProof policy: pruning mode (32-block window) or the archival window in blocks (0 = any). */
  readonly pruningEnabled?: boolean;
  readonly historicalProofQueryWindow?: number;
  /** Minimum staking period on the P-chain, in seconds (devnet-sized; the reference uses 24 h). */
  readonly minStakeDuration?: number;
  /** EVM chains: how long one `eth_call` may run, in ms (geth's RPCEVMTimeout; 0: no limit). */
  readonly rpcEvmTimeoutMs?: number;
  /** EVM chains: the result bytes one JSON-RPC batch may return (coreth's 25 MB; 0: no cap). */
  readonly batchResponseMaxBytes?: number;
  /** How long a client may take to send a request, in ms (AvalancheGo's `http-read-timeout`; 0: none). */
  readonly httpReadTimeoutMs?: number;
  /** EVM chains: the transaction pool's limits (coreth's `tx-pool-*`; their defaults when absent). */
  readonly txPool?: TxPoolLimits;
}

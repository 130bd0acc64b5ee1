/**
 * What the pool admits over RPC, in the reference's checks, order and words: decoding a raw
 * transaction as geth's decoder does, then coreth's txpool validation (ValidateTransaction,
 * then ValidateTransactionWithState). Pooling an admitted transaction is the chain's
 * (EvmChain.submit).
 */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Account, bytesToBigInt, toChecksumAddress, type Address } from '@ethereumjs/util';
import type { ChainContext } from '../../../chains/chain.js';
import type { EvmChainConfig } from '../chain-config.js';
import { EvmTxError } from '../vm-errors.js';
import { txBytes } from '../tx-bytes.js';
import { freezeWithSender } from '../tx-sender.js';
import { feeCaps, type PooledTx, type TxPool } from './txpool.js';

/** coreth's txpool bound on one transaction's encoding (txMaxSize, 4 slots of 32 KiB). */
const TX_MAX_SIZE = 4 * 32 * 1024;
/** coreth's and subnet-evm's tx-pool-price-limit default: the least tip a pooled tx may offer. */
const POOL_MIN_TIP = 1n;
/** EIP-3860's bound on a creation's init code. */
const MAX_INIT_CODE_SIZE = 49_152;

/** What admission reads from the chain it admits to (an EvmChain). */
export interface AdmittingChain {
  readonly config: Pick<EvmChainConfig, 'chainId'>;
  readonly ctx: Pick<ChainContext, 'clock'>;
  readonly pool: TxPool;
  maxBlockGas(): bigint;
  nextBaseFee(): bigint;
  executableTx(tx: TypedTransaction, timestamp: bigint): TypedTransaction;
  stateAt(): { getAccount(address: Address): Promise<Account | undefined> };
}

/** An admitted transaction's sender, the sender's account, and the pending one it replaces. */
export interface Admission {
  readonly sender: Address;
  readonly account: Account;
  readonly replaced?: PooledTx;
}

export function decodeRawTx(raw: Uint8Array, common: Common, chainId: number): TypedTransaction {
  // geth's decoder knows the legacy, EIP-2930, EIP-1559 and blob types only (EIP-7702's is
  // Prague's), and words a typed transaction with no payload as too short.
  if (raw.length > 0 && raw[0] <= 0x7f) {
    if (raw.length <= 1) throw new EvmTxError('typed transaction too short');
    if (raw[0] < 1 || raw[0] > 3) throw new EvmTxError('transaction type not supported');
  }
  let tx: TypedTransaction;
  try {
    // Init code over the limit is the pool's refusal (submit), in its words and order.
    // Decoded unfrozen so that its sender is derived once for admission and execution both.
    tx = createTxFromRLP(raw, { common, allowUnlimitedInitCodeSize: true, freeze: false });
  } catch (err) {
    const signedFor = signedChainId(raw);
    if (signedFor !== undefined && signedFor !== BigInt(chainId))
      throw new EvmTxError(`invalid chain id for signer: have ${signedFor} want ${chainId}`);
    throw new EvmTxError(`invalid transaction: ${(err as Error).message.split('\n')[0].split(' (')[0]}`);
  }
  return freezeWithSender(tx);
}

/**
 * Checks a signed transaction as coreth's txpool does before pooling it; throws EvmTxError
 * with the reference's words for the first check it fails.
 */
export async function checkAdmission(chain: AdmittingChain, tx: TypedTransaction): Promise<Admission> {
  if (tx.type === 3)
    throw new EvmTxError('transaction type not supported: tx type 3 not supported by this pool');
  if (!tx.isSigned()) throw new EvmTxError('invalid transaction: not signed');
  const txChainId = (tx as any).chainId as bigint | undefined;
  if (tx.type === 0 && !tx.supports(155 as any) && txChainId === undefined && !unprotectedAllowed(tx)) {
    // Pre-EIP-155 legacy transactions are refused, but for those the reference's default allows.
    throw new EvmTxError('only replay-protected (EIP-155) transactions allowed over RPC');
  }
  if (txChainId !== undefined && txChainId !== BigInt(chain.config.chainId)) {
    throw new EvmTxError(`invalid chain id for signer: have ${txChainId} want ${chain.config.chainId}`);
  }
  let sender: Address;
  try {
    sender = tx.getSenderAddress();
  } catch {
    throw new EvmTxError('invalid sender');
  }
  const size = txBytes(tx).length;
  if (size > TX_MAX_SIZE)
    throw new EvmTxError(`oversized data: transaction size ${size}, limit ${TX_MAX_SIZE}`);
  if (tx.to === undefined && tx.data.length > MAX_INIT_CODE_SIZE)
    throw new EvmTxError(
      `max initcode size exceeded: code size ${tx.data.length}, limit ${MAX_INIT_CODE_SIZE}`,
    );
  const maxGas = chain.maxBlockGas();
  if (tx.gasLimit > maxGas)
    throw new EvmTxError(`exceeds block gas limit: tx gas (${tx.gasLimit}) > current max gas (${maxGas})`);
  const { maxFee, tip } = feeCaps(tx);
  if (tip > maxFee) throw new EvmTxError('max priority fee per gas higher than max fee per gas');
  const intrinsic = chain.executableTx(tx, BigInt(chain.ctx.clock.nowSeconds())).getIntrinsicGas();
  if (tx.gasLimit < intrinsic)
    throw new EvmTxError(
      `intrinsic gas too low: address ${toChecksumAddress(sender.toString())} tx gas (${tx.gasLimit}), minimum needed ${intrinsic}`,
    );
  // The pool's minimum tip: coreth and subnet-evm pool RPC transactions as remote ones (their
  // local-txs-enabled is off), held to tx-pool-price-limit, 1 wei by default; a legacy
  // gasPrice is its own tip.
  if (tip < POOL_MIN_TIP)
    throw new EvmTxError(`transaction underpriced: gas tip cap ${tip}, minimum needed ${POOL_MIN_TIP}`);
  const baseFee = chain.nextBaseFee();
  if (maxFee < baseFee) {
    throw new EvmTxError(
      `transaction underpriced: address ${sender.toString()} gasFeeCap ${maxFee} < baseFee ${baseFee}`,
    );
  }
  const account = (await chain.stateAt().getAccount(sender)) ?? new Account();
  if (tx.nonce < account.nonce)
    throw new EvmTxError(`nonce too low: next nonce ${account.nonce}, tx nonce ${tx.nonce}`);
  const balance = account.balance;
  const cost = txCost(tx);
  const funds = 'insufficient funds for gas * price + value';
  if (balance < cost)
    throw new EvmTxError(`${funds}: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`);
  // The sender's pending transactions must stay payable too (they would fail in the block).
  const run = chain.pool.pendingRun(sender.toString(), account.nonce);
  const spent = run.reduce((sum, p) => sum + txCost(p.tx), 0n);
  const replaced = run.find((p) => p.nonce === tx.nonce);
  if (replaced) {
    const bump = cost - txCost(replaced.tx);
    if (balance < spent + bump)
      throw new EvmTxError(
        `${funds}: balance ${balance}, queued cost ${spent}, tx bumped ${bump}, overshot ${spent + bump - balance}`,
      );
  } else if (balance < spent + cost) {
    throw new EvmTxError(
      `${funds}: balance ${balance}, queued cost ${spent}, tx cost ${cost}, overshot ${spent + cost - balance}`,
    );
  }
  return { sender, account, replaced };
}

/** What a transaction may cost its sender at most (geth's tx.Cost()): gas × fee cap + value. */
function txCost(tx: TypedTransaction): bigint {
  return tx.gasLimit * feeCaps(tx).maxFee + tx.value;
}

/** The chain id a raw transaction was signed for, read without the engine (which refuses a foreign one). */
function signedChainId(raw: Uint8Array): bigint | undefined {
  try {
    if (raw.length > 0 && raw[0] <= 0x7f) {
      const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
      return bytesToBigInt(fields[0]);
    }
    const fields = RLP.decode(raw) as Uint8Array[];
    const v = bytesToBigInt(fields[6]);
    return v >= 35n ? (v - 35n) / 2n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The reference's default `allow-unprotected-tx-hashes` (coreth and subnet-evm): the EIP-1820
 * registry's keyless deployment.
 */
const ALLOWED_UNPROTECTED_TX_HASHES = new Set([
  'fefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e',
]);

/**
 * The unprotected transactions the reference admits over RPC by default (`UnprotectedAllowed`):
 * a listed hash, or Nick's method — a keyless deployment whose signature is a made-up pattern
 * (nonce 0, r = s), as TeleporterMessenger and the deterministic factories are deployed on
 * every chain at one address.
 */
function unprotectedAllowed(tx: TypedTransaction): boolean {
  if (ALLOWED_UNPROTECTED_TX_HASHES.has(Buffer.from(tx.hash()).toString('hex'))) return true;
  return tx.nonce === 0n && tx.r !== undefined && tx.r === tx.s;
}

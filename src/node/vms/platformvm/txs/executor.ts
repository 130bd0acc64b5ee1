/**
 * Verifies a P-chain transaction against the current state, as a node does before accepting it,
 * and returns what accepting it writes. Verification only reads; a rejected transaction changes
 * nothing. `apply()` runs inside the accepting block's database transaction.
 *
 * This module is the dispatch, as the reference's standard_tx_executor.go: it sends each tx type to
 * its family (transfer-txs, subnet-txs, staker-txs, l1-txs), which build on base-checks; the Warp
 * messages a tx carries are checked first (warp-messages).
 */
import { pvmSerial } from '@avalabs/avalanchejs';
import { toCb58 } from '../../../../shared/encoding.js';
import type { ParsedTx } from '../codec.js';
import type { ExecEnv, Executed } from './env.js';
import { fail, txGas } from './base-checks.js';
import { baseTx, exportTx, importTx } from './transfer-txs.js';
import { createChainTx, createSubnetTx, transferSubnetOwnershipTx } from './subnet-txs.js';
import {
  addDelegatorTx,
  addSubnetValidatorTx,
  addValidatorTx,
  removeSubnetValidatorTx,
} from './staker-txs.js';
import {
  convertSubnetTx,
  disableL1ValidatorTx,
  increaseL1BalanceTx,
  registerL1ValidatorTx,
  setL1ValidatorWeightTx,
} from './l1-txs.js';
import { verifyWarpMessages } from './warp-messages.js';
import { TxVerifyError } from './utxo-kinds.js';

export function typeName(unsigned: unknown): string {
  const u = unsigned as Record<string, unknown>;
  const t = typeof u._type === 'string' ? u._type : 'Unknown';
  return t.replace(/^pvm\./, '');
}

/**
 * Verifies `tx` as the reference's `VerifyTx` does: the Warp messages it carries first (their
 * refusals under `failed verifying warp messages: `), then, with `capacity` (issuing, not
 * building a block: the gas capacity the state holds at the next block's time), the tx's gas
 * against it, then the execution against the state. The
 * execution's refusal carries two layers, as since avalanchego v1.11.13 (#3525): `StandardTx`
 * wraps every visitor error as `standard tx <txID> failed execution: <why>`, and `VerifyTx` wraps
 * that as `failed execution: `.
 */
export function executeTx(tx: ParsedTx, env: ExecEnv, capacity?: bigint): Executed {
  try {
    verifyWarpMessages(tx, env);
  } catch (err) {
    if (err instanceof TxVerifyError) throw new StagedTxError('failed verifying warp messages', err.message);
    throw err;
  }
  if (capacity !== undefined) checkCapacity(tx, env, capacity);
  try {
    return executeStandardTx(tx, env);
  } catch (err) {
    if (err instanceof TxVerifyError)
      throw new StagedTxError(
        'failed execution',
        `standard tx ${toCb58(tx.id)} failed execution: ${err.message}`,
      );
    throw err;
  }
}

/**
 * `VerifyTx`'s check since Etna, before `StandardTx` runs (block/executor/manager.go): the tx's
 * complexity from the tx alone, so a tx too big for a block is refused as such even when it
 * would also fail execution. Both refusals are `VerifyTx`'s own, under no execution layer.
 */
function checkCapacity(tx: ParsedTx, env: ExecEnv, capacity: bigint): void {
  let gas: bigint;
  try {
    gas = txGas(tx, env.config.gasFee.weights);
  } catch (err) {
    // The reference's complexity visitor refuses the txs it does not price (the pre-Etna staker
    // txs, TransformSubnetTx) with fee.ErrUnsupportedTx; avalanchejs throws its own words.
    const why = err instanceof Error ? err.message : String(err);
    fail(
      `failed to calculate tx complexity: ${/^unsupported transaction type\.?$/i.test(why) ? 'unsupported transaction type' : why}`,
    );
  }
  if (gas > capacity) fail(`tx exceeds current gas capacity: ${gas} > ${capacity}`);
}

/**
 * A refusal under the stage of `VerifyTx` that made it. The block builder drops a tx with the
 * `reason` under the stage (the Warp error bare, or `StandardTx`'s `standard tx <txID> failed
 * execution: <why>`), as the reference's builder marks what those calls return.
 */
export class StagedTxError extends TxVerifyError {
  constructor(
    readonly stage: string,
    readonly reason: string,
  ) {
    super(`${stage}: ${reason}`);
  }
}

function executeStandardTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as unknown;
  if (pvmSerial.isPvmBaseTx(u as never)) return baseTx(tx, env);
  if (pvmSerial.isImportTx(u as never)) return importTx(tx, env);
  if (pvmSerial.isExportTx(u as never)) return exportTx(tx, env);
  if (pvmSerial.isCreateSubnetTx(u as never)) return createSubnetTx(tx, env);
  if (pvmSerial.isCreateChainTx(u as never)) return createChainTx(tx, env);
  if (pvmSerial.isAddSubnetValidatorTx(u as never)) return addSubnetValidatorTx(tx, env);
  if (pvmSerial.isRemoveSubnetValidatorTx(u as never)) return removeSubnetValidatorTx(tx, env);
  if (pvmSerial.isTransferSubnetOwnershipTx(u as never)) return transferSubnetOwnershipTx(tx, env);
  if (pvmSerial.isAddPermissionlessValidatorTx(u as never)) return addValidatorTx(tx, env);
  if (pvmSerial.isAddPermissionlessDelegatorTx(u as never)) return addDelegatorTx(tx, env);
  if (pvmSerial.isConvertSubnetToL1Tx(u as never)) return convertSubnetTx(tx, env);
  if (pvmSerial.isRegisterL1ValidatorTx(u as never)) return registerL1ValidatorTx(tx, env);
  if (pvmSerial.isSetL1ValidatorWeightTx(u as never)) return setL1ValidatorWeightTx(tx, env);
  if (pvmSerial.isIncreaseL1ValidatorBalanceTx(u as never)) return increaseL1BalanceTx(tx, env);
  if (pvmSerial.isDisableL1ValidatorTx(u as never)) return disableL1ValidatorTx(tx, env);
  fail(`${typeName(u)} is not accepted by this P-chain (it is disabled on current networks)`);
}

/**
 * BaseTx, ImportTx and ExportTx: moving AVAX within the P-chain and through shared memory to and
 * from the other chains of the primary network.
 */
import { TransferOutput, pvmSerial } from '@avalabs/avalanchejs';
import { toCb58 } from '../../../../shared/encoding.js';
import { sameSubnetFailure } from '../../components/same-subnet.js';
import { inputIdOf } from '../../components/utxo-id.js';
import { makeUtxo, packUtxo, unpackUtxo, type ParsedTx } from '../codec.js';
import type { ExecEnv, Executed } from './env.js';
import {
  common,
  consumeAndProduce,
  fail,
  localInputs,
  spend,
  verifyBaseTx,
  verifyInputs,
  verifyOutputs,
} from './base-checks.js';
import { inputIdOfInput, type SpendInput } from './spend.js';
import { outputInfo } from './utxo-kinds.js';
import { inputsSortedAndUnique, outputsSorted } from './sort-order.js';

export function baseTx(tx: ParsedTx, env: ExecEnv): Executed {
  verifyBaseTx(tx, env);
  const c = common(tx, env);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return { type: 'BaseTx', gas: c.gas, apply: () => consumeAndProduce(env, tx.id, c.base) };
}

/**
 * Refuses an atomic tx whose peer chain is not another chain of the primary network, in the
 * reference's words (`verify.SameSubnet` over the P-chain's own chain records).
 */
function requireAtomicPeer(env: ExecEnv, peer: Uint8Array): void {
  const failure = sameSubnetFailure(
    toCb58(env.ids.p),
    toCb58(peer),
    [env.ids.p, env.ids.x, env.ids.c].map((id) => toCb58(id)),
    () => {
      const chain = env.state.chain(peer);
      if (chain) return { subnet: toCb58(chain.subnet) };
      return env.state.getTx(peer) ? { notABlockchain: true } : undefined;
    },
  );
  if (failure) fail(failure);
}

export function importTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.ImportTx;
  if (u.ins.length === 0) fail('tx has no imported inputs');
  verifyBaseTx(tx, env);
  verifyInputs(u.ins);
  if (!inputsSortedAndUnique(u.ins)) fail('inputs not sorted and unique');
  const c = common(tx, env);
  const source = u.sourceChain.toBytes();
  requireAtomicPeer(env, source);
  const sourceText = toCb58(source);
  const pText = toCb58(env.ids.p);
  const imported: SpendInput[] = u.ins.map((input, i) => {
    const bytes = env.sharedMemory.get(sourceText, pText, inputIdOfInput(input));
    return {
      input,
      utxo: bytes ? unpackUtxo(bytes) : undefined,
      signatures: tx.credentials[u.baseTx.inputs.length + i] ?? [],
    };
  });
  // The reference reads all of them from shared memory at once and fails with the database's
  // `not found`, naming none; then it reads the tx's own UTXOs itself.
  if (imported.some((imp) => !imp.utxo)) fail('failed to get shared memory: not found');
  const local = localInputs(tx, env, c.base.inputs);
  for (const l of local)
    if (!l.utxo)
      fail(
        `failed to get UTXO ${l.input.utxoID.txID.toString()}:${l.input.utxoID.outputIdx.value()}: not found`,
      );
  // No check that the two lists name different UTXOs, as the reference has none: each is sorted
  // and unique (SyntacticVerify), and one holds P-chain UTXOs, the other another chain's exports.
  spend(c, env, tx.credentials.length, [...local, ...imported], c.base.outputs);
  return {
    type: 'ImportTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.sharedMemory.remove(sourceText, pText, u.ins.map(inputIdOfInput));
    },
  };
}

export function exportTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.ExportTx;
  if (u.outs.length === 0) fail('no export outputs');
  verifyBaseTx(tx, env);
  for (const out of u.outs) {
    verifyOutputs([out]);
    if (!(out.output instanceof TransferOutput)) fail('wrong locktime reported');
  }
  if (!outputsSorted(u.outs)) fail('outputs not sorted');
  const c = common(tx, env);
  const dest = u.destination.toBytes();
  requireAtomicPeer(env, dest);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), [...c.base.outputs, ...u.outs]);
  return {
    type: 'ExportTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      const offset = c.base.outputs.length;
      env.sharedMemory.put(
        toCb58(env.ids.p),
        toCb58(dest),
        u.outs.map((out, i) => {
          const utxo = makeUtxo(tx.id, offset + i, out.assetId.toBytes(), out.output);
          return {
            inputId: inputIdOf(tx.id, offset + i),
            bytes: packUtxo(utxo),
            addresses: outputInfo(out.output).owners.addresses,
          };
        }),
      );
    },
  };
}

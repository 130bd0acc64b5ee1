/**
 * The `json` encoding of X-chain txs and blocks, with the fields and names the spec lists
 * (unsignedTx with networkID, blockchainID, outputs, inputs, memo, and the import/export
 * extras; credentials; id). Amounts, lock times, heights and times are bare JSON integers, as
 * the spec's tables say and as Go's encoding/json writes a uint64 (every digit, even above 2^53,
 * where a JavaScript reader rounds them as it would the reference's); owners and outputs list
 * their members alphabetically, as the reference marshals them from a map.
 */
import { plainHex, toCb58 } from '../../../../shared/encoding.js';
import { jsonInteger } from '../../../rpc/json-integer.js';
import type { StandardBlock } from '../block/standard-block.js';
import { FX_IDS } from '../constants.js';
import type {
  Credential,
  Operation,
  Output,
  Owners,
  TxInput,
  TxOperation,
  TxOutput,
  XTx,
} from '../txs/model.js';
import { formatAddress } from '../../components/service-address.js';

type Json = Record<string, unknown>;

export class JsonFormatter {
  constructor(private readonly hrp: string) {}

  owners(o: Owners): Json {
    return {
      addresses: o.addresses.map((a) => formatAddress(this.hrp, a)),
      locktime: jsonInteger(o.locktime),
      threshold: o.threshold,
    };
  }

  output(out: Output): Json {
    switch (out.kind) {
      case 'secpTransfer': {
        const { addresses, ...rest } = this.owners(out.owners);
        return { addresses, amount: jsonInteger(out.amount), ...rest };
      }
      case 'secpMint':
        return this.owners(out.owners);
      // nftfx outputs marshal as a map too: their members in alphabetical order.
      case 'nftMint': {
        const { addresses, ...rest } = this.owners(out.owners);
        return { addresses, groupID: out.groupId, ...rest };
      }
      case 'nftTransfer': {
        const { addresses, locktime, threshold } = this.owners(out.owners);
        return { addresses, groupID: out.groupId, locktime, payload: plainHex(out.payload), threshold };
      }
    }
  }

  transferableOutput(o: TxOutput): Json {
    return { assetID: toCb58(o.assetId), fxID: FX_IDS[o.output.fx], output: this.output(o.output) };
  }

  input(i: TxInput): Json {
    return {
      txID: toCb58(i.txId),
      outputIndex: i.outputIndex,
      assetID: toCb58(i.assetId),
      fxID: FX_IDS[0],
      input: { amount: jsonInteger(i.amount), signatureIndices: [...i.sigIndices] },
    };
  }

  operation(op: TxOperation): Json {
    return {
      assetID: toCb58(op.assetId),
      inputIDs: op.utxos.map((u) => ({ txID: toCb58(u.txId), outputIndex: u.outputIndex })),
      fxID: FX_IDS[op.op.fx],
      operation: this.op(op.op),
    };
  }

  private op(o: Operation): Json {
    const mintInput = { signatureIndices: [...o.sigIndices] };
    switch (o.kind) {
      case 'secpMint':
        return {
          mintInput,
          mintOutput: this.output(o.mintOutput),
          transferOutput: this.output(o.transferOutput),
        };
      case 'nftMint':
        return {
          mintInput,
          groupID: o.groupId,
          payload: plainHex(o.payload),
          outputs: o.outputs.map((w) => this.owners(w)),
        };
      case 'nftTransfer':
        return { input: mintInput, output: this.output(o.output) };
    }
  }

  credential(c: Credential): Json {
    return { fxID: FX_IDS[c.fx], credential: { signatures: c.signatures.map(plainHex) } };
  }

  tx(tx: XTx): Json {
    const unsignedTx: Json = {
      networkID: tx.networkId,
      blockchainID: toCb58(tx.blockchainId),
      outputs: tx.outs.map((o) => this.transferableOutput(o)),
      inputs: tx.ins.map((i) => this.input(i)),
      memo: plainHex(tx.memo),
    };
    if (tx.createAsset) {
      unsignedTx.name = tx.createAsset.name;
      unsignedTx.symbol = tx.createAsset.symbol;
      unsignedTx.denomination = tx.createAsset.denomination;
      unsignedTx.initialStates = tx.createAsset.initialStates.map((s) => ({
        fxIndex: s.fxIndex,
        fxID: FX_IDS[s.fxIndex],
        outputs: s.outputs.map((o) => this.output(o)),
      }));
    }
    if (tx.kind === 'OperationTx') unsignedTx.operations = tx.ops.map((op) => this.operation(op));
    if (tx.sourceChain) {
      unsignedTx.sourceChain = toCb58(tx.sourceChain);
      unsignedTx.importedInputs = tx.importedIns.map((i) => this.input(i));
    }
    if (tx.destinationChain) {
      unsignedTx.destinationChain = toCb58(tx.destinationChain);
      unsignedTx.exportedOutputs = tx.exportedOuts.map((o) => this.transferableOutput(o));
    }
    return {
      unsignedTx,
      credentials: tx.credentials.map((c) => this.credential(c)),
      id: tx.idString,
    };
  }

  block(id: string, block: StandardBlock, txs: readonly XTx[]): Json {
    return {
      parentID: toCb58(block.parentId),
      height: jsonInteger(block.height),
      time: jsonInteger(block.time),
      merkleRoot: toCb58(block.merkleRoot),
      txs: txs.map((t) => this.tx(t)),
      id,
    };
  }
}

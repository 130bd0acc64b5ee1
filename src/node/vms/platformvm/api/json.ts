/**
 * The `json` encoding of P-chain txs and blocks, shaped as the reference marshals its Go structs
 * with encoding/json: the same member names and order (embedded structs flattened where they
 * carry no tag), uint64 fields as bare JSON numbers with every digit (JsonInteger), uint32 fields
 * as numbers, ids in cb58, byte slices as `0x` hex without checksum, and output owners with
 * `P-<hrp>1…` addresses. A few quirks are the reference's own and kept on purpose: owners and
 * secp256k1 outputs are Go maps, so their members are sorted by name; CreateChainTx's genesis is
 * a plain []byte (base64); a RegisterL1ValidatorTx's proof of possession is a byte array (a list
 * of numbers); the PChainOwners of ACP-77 txs list bare cb58 short ids.
 */
import {
  type avaxSerial,
  type OutputOwners,
  type PChainOwner,
  pvmSerial,
  type TransferableInput,
  type TransferableOutput,
  type Common,
} from '@avalabs/avalanchejs';
import { plainHex, toCb58 } from '../../../../shared/encoding.js';
import { jsonInteger } from '../../../rpc/json-integer.js';
import { SECP256K1_FX_ID } from '../../components/secp256k1fx.js';
import { decodeBlock } from '../block/decode.js';
import { authIndices, parseSignedTx, type ParsedTx } from '../codec.js';
import { formatAddress } from './format.js';

type Json = Record<string, unknown>;

/** The secp256k1 pieces avalanchejs reads inside transferables (output, input, stakeable locks). */
interface TransferOut {
  readonly amt: { value(): bigint };
  readonly outputOwners: OutputOwners;
}
interface TransferIn {
  amount(): bigint;
  sigIndicies(): number[];
}

export class TxJsonError extends Error {
  override readonly name = 'TxJsonError';
}

export class PlatformJson {
  constructor(private readonly hrp: string) {}

  /** `{unsignedTx, credentials, id}`, as the reference's txs.Tx marshals. */
  tx(tx: ParsedTx): Json {
    return {
      unsignedTx: this.unsigned(tx.unsigned),
      credentials: tx.credentials.map((sigs) => ({ signatures: sigs.map(plainHex) })),
      id: toCb58(tx.id),
    };
  }

  /** A stored block by its bytes; its id is sha256 of them, as stored. */
  block(id: Uint8Array, bytes: Uint8Array): Json {
    const b = decodeBlock(bytes);
    const head = { parentID: toCb58(b.parentId), height: jsonInteger(b.height), id: toCb58(id) };
    const txs = b.txs.map((t) => this.tx(parseSignedTx(t)));
    const time = b.time === undefined ? undefined : jsonInteger(b.time);
    switch (b.kind) {
      case 'genesis':
        return head;
      case 'standard':
        return { time, ...head, txs };
      case 'proposal':
        return { time, txs, ...head, tx: this.tx(parseSignedTx(b.proposalTx!)) };
      case 'commit':
      case 'abort':
        return { time, ...head };
    }
  }

  private unsigned(u: Common.Transaction): Json {
    if (pvmSerial.isPvmBaseTx(u)) return this.base(u.baseTx);
    if (pvmSerial.isCreateSubnetTx(u))
      return { ...this.base(u.baseTx), owner: this.owner(u.getSubnetOwners()) };
    if (pvmSerial.isCreateChainTx(u))
      return {
        ...this.base(u.baseTx),
        subnetID: u.subnetID.toString(),
        chainName: u.chainName.value(),
        vmID: u.vmID.toString(),
        fxIDs: u.fxIds.map((f) => f.toString()),
        // A plain Go []byte: encoding/json writes it in base64.
        genesisData: Buffer.from(u.genesisData.bytes).toString('base64'),
        subnetAuthorization: auth(u.subnetAuth),
      };
    if (pvmSerial.isImportTx(u))
      return {
        ...this.base(u.baseTx),
        sourceChain: u.sourceChain.toString(),
        importedInputs: u.ins.map((i) => this.input(i)),
      };
    if (pvmSerial.isExportTx(u))
      return {
        ...this.base(u.baseTx),
        destinationChain: u.destination.toString(),
        exportedOutputs: u.outs.map((o) => this.output(o)),
      };
    if (pvmSerial.isAddPermissionlessValidatorTx(u))
      return {
        ...this.base(u.baseTx),
        validator: validator(u.subnetValidator.validator),
        subnetID: u.subnetValidator.subnetId.toString(),
        signer: pvmSerial.isSigner(u.signer) ? proofOfPossession(u.signer.proof) : {},
        stake: u.stake.map((o) => this.output(o)),
        validationRewardsOwner: this.owner(u.getValidatorRewardsOwner()),
        delegationRewardsOwner: this.owner(u.getDelegatorRewardsOwner()),
        shares: u.shares.value(),
      };
    if (pvmSerial.isAddPermissionlessDelegatorTx(u))
      return {
        ...this.base(u.baseTx),
        validator: validator(u.subnetValidator.validator),
        subnetID: u.subnetValidator.subnetId.toString(),
        stake: u.stake.map((o) => this.output(o)),
        rewardsOwner: this.owner(u.getDelegatorRewardsOwner()),
      };
    if (pvmSerial.isAddSubnetValidatorTx(u))
      return {
        ...this.base(u.baseTx),
        // SubnetValidator embeds Validator untagged: its fields sit beside subnetID.
        validator: {
          ...validator(u.subnetValidator.validator),
          subnetID: u.subnetValidator.subnetId.toString(),
        },
        subnetAuthorization: auth(u.subnetAuth),
      };
    if (pvmSerial.isRemoveSubnetValidatorTx(u))
      return {
        ...this.base(u.baseTx),
        nodeID: u.nodeId.toString(),
        subnetID: u.subnetId.toString(),
        subnetAuthorization: auth(u.subnetAuth),
      };
    if (pvmSerial.isTransferSubnetOwnershipTx(u))
      return {
        ...this.base(u.baseTx),
        subnetID: u.subnetID.toString(),
        subnetAuthorization: auth(u.subnetAuth),
        newOwner: this.owner(u.getSubnetOwners()),
      };
    if (pvmSerial.isConvertSubnetToL1Tx(u))
      return {
        ...this.base(u.baseTx),
        subnetID: u.subnetID.toString(),
        chainID: u.chainID.toString(),
        address: plainHex(u.address.bytes),
        validators: u.validators.map((v) => ({
          nodeID: plainHex(v.nodeId.bytes),
          weight: jsonInteger(v.weight.value()),
          balance: jsonInteger(v.balance.value()),
          signer: proofOfPossession(v.signer),
          remainingBalanceOwner: pChainOwner(v.remainingBalanceOwner),
          deactivationOwner: pChainOwner(v.deactivationOwner),
        })),
        subnetAuthorization: auth(u.subnetAuth),
      };
    if (pvmSerial.isRegisterL1ValidatorTx(u))
      return {
        ...this.base(u.baseTx),
        balance: jsonInteger(u.balance.value()),
        // A Go byte array, not a slice: encoding/json lists its bytes as numbers.
        proofOfPossession: [...u.blsSignature.toBytes()],
        message: plainHex(u.message.bytes),
      };
    if (pvmSerial.isSetL1ValidatorWeightTx(u))
      return { ...this.base(u.baseTx), message: plainHex(u.message.bytes) };
    if (pvmSerial.isIncreaseL1ValidatorBalanceTx(u))
      return {
        ...this.base(u.baseTx),
        validationID: u.validationId.toString(),
        balance: jsonInteger(u.balance.value()),
      };
    if (pvmSerial.isDisableL1ValidatorTx(u))
      return {
        ...this.base(u.baseTx),
        validationID: u.validationId.toString(),
        disableAuthorization: auth(u.disableAuth),
      };
    if (pvmSerial.isRewardValidatorTx(u)) return { txID: u.txId.toString() };
    if (pvmSerial.isAdvanceTimeTx(u)) return { time: jsonInteger(u.time.value()) };
    // This chain accepts none of the pre-Durango staking txs, so none is ever stored.
    throw new TxJsonError(`no json encoding for ${u._type}`);
  }

  /** The embedded avax.BaseTx; every input and output gets the secp256k1fx id, as InitCtx sets. */
  private base(b: avaxSerial.BaseTx): Json {
    return {
      networkID: b.NetworkId.value(),
      blockchainID: b.BlockchainId.toString(),
      outputs: b.outputs.map((o) => this.output(o)),
      inputs: b.inputs.map((i) => this.input(i)),
      memo: plainHex(b.memo.bytes),
    };
  }

  private output(o: TransferableOutput): Json {
    return { assetID: o.assetId.toString(), fxID: SECP256K1_FX_ID, output: this.outputBody(o.output) };
  }

  private outputBody(out: unknown): Json {
    if (out instanceof pvmSerial.StakeableLockOut)
      return {
        locktime: jsonInteger(out.lockTime.value()),
        output: this.transferOutput(out.transferOut as unknown as TransferOut),
      };
    return this.transferOutput(out as TransferOut);
  }

  /** A Go map: members sorted by name. */
  private transferOutput(out: TransferOut): Json {
    const { addresses, locktime, threshold } = this.owner(out.outputOwners);
    return { addresses, amount: jsonInteger(out.amt.value()), locktime, threshold };
  }

  private input(i: TransferableInput): Json {
    const inner = i.input as unknown;
    return {
      txID: i.utxoID.txID.toString(),
      outputIndex: i.utxoID.outputIdx.value(),
      assetID: i.assetId.toString(),
      fxID: SECP256K1_FX_ID,
      input:
        inner instanceof pvmSerial.StakeableLockIn
          ? {
              locktime: jsonInteger(inner.lockTime.value()),
              input: transferInput(inner.transferableInput as unknown as TransferIn),
            }
          : transferInput(inner as TransferIn),
    };
  }

  /** A Go map: members sorted by name. */
  private owner(o: OutputOwners): Json {
    return {
      addresses: o.addrs.map((a) => formatAddress(this.hrp, a.toBytes())),
      locktime: jsonInteger(o.locktime.value()),
      threshold: o.threshold.value(),
    };
  }
}

function transferInput(i: TransferIn): Json {
  return { amount: jsonInteger(i.amount()), signatureIndices: i.sigIndicies() };
}

function validator(v: pvmSerial.Validator): Json {
  return {
    nodeID: v.nodeId.toString(),
    start: jsonInteger(v.startTime.value()),
    end: jsonInteger(v.endTime.value()),
    weight: jsonInteger(v.weight.value()),
  };
}

function proofOfPossession(p: pvmSerial.ProofOfPossession): Json {
  return { publicKey: plainHex(p.publicKey), proofOfPossession: plainHex(p.signature) };
}

/** ACP-77 owners are plain structs of ShortIDs: bare cb58, no chain alias or hrp. */
function pChainOwner(o: PChainOwner): Json {
  return { threshold: o.threshold.value(), addresses: o.addresses.map((a) => toCb58(a.toBytes())) };
}

function auth(a: unknown): Json {
  return { signatureIndices: authIndices(a) };
}

/**
 * CreateSubnetTx, CreateChainTx and TransferSubnetOwnershipTx: making subnets and their chains,
 * and handing a subnet to another owner.
 */
import type { pvmSerial } from '@avalabs/avalanchejs';
import type { ParsedTx } from '../codec.js';
import type { ChainRecord } from '../state/platform-state.js';
import { PRIMARY_NETWORK, type ExecEnv, type Executed } from './env.js';
import {
  EMPTY_ID,
  checkOwners,
  common,
  consumeAndProduce,
  eq,
  fail,
  flowCheckedSpend,
  localInputs,
  spend,
  verifyAuthInput,
  verifyBaseTx,
  verifyPoASubnetAuth,
  verifySubnetAuth,
} from './base-checks.js';

const MAX_CHAIN_NAME = 128;
const MAX_GENESIS = 1024 * 1024;

export function createSubnetTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.CreateSubnetTx;
  verifyBaseTx(tx, env);
  const owner = checkOwners(u.subnetOwners);
  const c = common(tx, env);
  spend(c, env, tx.credentials.length, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return {
    type: 'CreateSubnetTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.addSubnet(tx.id, owner, env.height);
    },
  };
}

export function createChainTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.CreateChainTx;
  const subnetId = u.subnetID.toBytes();
  const name = u.chainName.value();
  const vmId = u.vmID.toBytes();
  const fxIds = u.fxIds.map((f) => f.toBytes());
  // CreateChainTx.SyntacticVerify, in its order and words.
  if (eq(subnetId, PRIMARY_NETWORK)) fail("new blockchain can't be validated by primary network");
  if (Buffer.byteLength(name) > MAX_CHAIN_NAME) fail('name too long');
  if (eq(vmId, EMPTY_ID)) fail('invalid VM ID');
  for (let i = 1; i < fxIds.length; i++)
    if (Buffer.compare(Buffer.from(fxIds[i - 1]), Buffer.from(fxIds[i])) >= 0)
      fail('feature extensions IDs must be sorted and unique');
  if (u.genesisData.length > MAX_GENESIS) fail('genesis too long');
  // ASCII letters, digits and spaces (Go's unicode.IsLetter/IsNumber below MaxASCII).
  if (!/^[A-Za-z0-9 ]*$/.test(name)) fail('illegal name character');
  verifyBaseTx(tx, env);
  verifyAuthInput(u.subnetAuth);
  const c = common(tx, env);
  const creds = verifyPoASubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  spend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
  const chain: ChainRecord = {
    id: tx.id,
    subnet: subnetId,
    name,
    vmId,
    genesis: u.genesisData.toBytes().subarray(4),
    fxIds,
    height: env.height,
  };
  return {
    type: 'CreateChainTx',
    gas: c.gas,
    createdChain: chain,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.addChain(chain);
    },
  };
}

export function transferSubnetOwnershipTx(tx: ParsedTx, env: ExecEnv): Executed {
  const u = tx.unsigned as pvmSerial.TransferSubnetOwnershipTx;
  const subnetId = u.subnetID.toBytes();
  if (eq(subnetId, PRIMARY_NETWORK)) fail('cannot transfer ownership of a permissionless subnet');
  verifyBaseTx(tx, env);
  verifyAuthInput(u.subnetAuth);
  const owner = checkOwners(u.subnetOwners);
  const c = common(tx, env);
  const creds = verifySubnetAuth(tx, env, c, subnetId, u.subnetAuth);
  flowCheckedSpend(c, env, creds, localInputs(tx, env, c.base.inputs), c.base.outputs);
  return {
    type: 'TransferSubnetOwnershipTx',
    gas: c.gas,
    apply: () => {
      consumeAndProduce(env, tx.id, c.base);
      env.state.setSubnetOwner(subnetId, owner);
    },
  };
}

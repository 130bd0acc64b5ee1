/**
 * The X- and C-chain's CreateChainTxs from the P-chain genesis, as a real node serves them
 * (`syncGenesis` stores them as committed txs): `platform.getTx` of each chain id in hex (decoded
 * by avalanchejs v5's PVM manager) and json (parsed by @avalanche-sdk/client), `getTxStatus`
 * Committed, and their genesis data checked against the chains the node runs — the X-chain's
 * genesis CreateAssetTx, the C-chain's chain id, forks, genesis block and allocations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { avaxSerial, avmSerial, Context, Input, pvm, pvmSerial, Stringpr, utils } from '@avalabs/avalanchejs';
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { pCall, pResult } from './pchain-helpers.js';
import { xResult } from './xchain-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const AVM = 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq';
const EVM = 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6';
const FXS = [
  'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ',
  'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT',
  'rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy',
];
const pvmManager = utils.getManagerForVM('PVM');

/** Hex with the 4-byte checksum the node appends, checked and dropped. */
function unchecked(hex: string): Uint8Array {
  const bytes = utils.hexToBuffer(hex);
  assert.deepEqual(bytes.subarray(-4), utils.addChecksum(bytes.subarray(0, -4)).subarray(-4));
  return bytes.subarray(0, -4);
}

describe('P-chain genesis chains', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let client: any;
  const ids = () => ({ X: ctx.xBlockchainID, C: ctx.cBlockchainID });
  /** getTx hex of a chain id, unpacked by avalanchejs; the unsigned tx a CreateChainTx. */
  const chainTx = async (txID: string) => {
    const answer = await pResult(net.url, 'platform.getTx', { txID, encoding: 'hex' });
    assert.equal(answer.encoding, 'hex');
    const signed = pvmManager.unpack(unchecked(answer.tx), avaxSerial.SignedTx);
    assert.ok(pvmSerial.isCreateChainTx(signed.unsignedTx));
    return { signed, tx: signed.unsignedTx as pvmSerial.CreateChainTx };
  };

  before(async () => {
    net = await startDevnet({ command: 'node' });
    ctx = await Context.getContextFromURI(net.url);
    client = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
  });
  after(async () => {
    await net?.stop();
  });

  it('serves each genesis chain’s CreateChainTx in hex, as the reference genesis builds it', async () => {
    for (const [alias, name, vm, fxs] of [
      ['X', 'X-Chain', AVM, FXS],
      ['C', 'C-Chain', EVM, []],
    ] as const) {
      const { signed, tx } = await chainTx(ids()[alias]);
      assert.equal(tx.baseTx.NetworkId.value(), ctx.networkID);
      assert.equal(tx.baseTx.BlockchainId.toString(), PRIMARY);
      assert.deepEqual([tx.baseTx.inputs.length, tx.baseTx.outputs.length], [0, 0]);
      assert.equal(tx.baseTx.memo.length, 0);
      assert.equal(tx.subnetID.toString(), PRIMARY);
      assert.equal(tx.chainName.value(), name);
      assert.equal(tx.vmID.toString(), vm);
      assert.deepEqual(
        tx.fxIds.map((f) => f.toString()),
        fxs,
      );
      assert.ok(tx.subnetAuth instanceof Input);
      assert.deepEqual((tx.subnetAuth as Input).values(), []);
      assert.equal(signed.credentials.length, 0);
      // avalanchejs's PVMApi reads the same tx.
      const viaApi = await new pvm.PVMApi(net.url).getTx({ txID: ids()[alias] });
      assert.deepEqual(viaApi.toBytes(), signed.toBytes());
      assert.deepEqual(await pResult(net.url, 'platform.getTxStatus', { txID: ids()[alias] }), {
        status: 'Committed',
      });
    }
  });

  it("holds the X-chain's avm genesis: the AVAX asset's CreateAssetTx avm.getTx serves", async () => {
    const { tx } = await chainTx(ctx.xBlockchainID);
    const data = tx.genesisData.toBytes().subarray(4); // Bytes packs its length first
    // avm.Genesis: codec version, one GenesisAsset (alias, then the CreateAssetTx's fields).
    assert.deepEqual([...data.subarray(0, 6)], [0, 0, 0, 0, 0, 1]);
    const [alias, fields] = Stringpr.fromBytes(data.subarray(6));
    assert.equal(alias.value(), 'AVAX');
    const codec = avmSerial.getAVMManager().getDefaultCodec();
    // avalanchejs types the fields private; they are plain properties at run time.
    const [asset, rest] = avmSerial.CreateAssetTx.fromBytes(fields, codec) as [any, Uint8Array];
    assert.equal(rest.length, 0);
    assert.equal(asset.name.value(), 'Avalanche');
    assert.equal(asset.symbol.value(), 'AVAX');
    // The same tx the X-chain serves under the asset id: its bytes minus the codec version and
    // type id before, and the (empty) credential count after.
    const served = unchecked(
      (await xResult(net.url, 'avm.getTx', { txID: ctx.avaxAssetID, encoding: 'hex' })).tx,
    );
    assert.deepEqual(fields, served.subarray(6, -4));
  });

  it("holds the C-chain's genesis JSON: its chain id, forks, genesis block and allocations", async () => {
    const { tx } = await chainTx(ctx.cBlockchainID);
    const genesis = JSON.parse(new TextDecoder().decode(tx.genesisData.toBytes().subarray(4)));
    const c = net.facts.urls.cChainRpc;
    assert.equal(genesis.config.chainId, Number(await call(c, 'eth_chainId')));
    assert.equal(genesis.config.chainId, 43112);
    assert.deepEqual(genesis.config, await call(c, 'eth_getChainConfig'));
    const block0 = await call(c, 'eth_getBlockByNumber', ['0x0', false]);
    for (const field of ['timestamp', 'gasLimit', 'extraData', 'baseFeePerGas', 'mixHash', 'difficulty'])
      assert.equal(genesis[field], block0[field], field);
    assert.equal(genesis.coinbase, block0.miner);
    // geth's genesis nonce is a quantity; the header's an 8-byte value.
    assert.equal(BigInt(genesis.nonce), BigInt(block0.nonce));
    assert.equal(genesis.gasLimit, '0x5f5e100');
    const accounts = Object.entries(genesis.alloc) as [string, { balance: string; code?: string }][];
    assert.ok(accounts.length >= 2);
    for (const [address, account] of accounts) {
      assert.match(address, /^[0-9a-f]{40}$/);
      assert.equal(account.balance, await call(c, 'eth_getBalance', ['0x' + address, '0x0']), address);
      assert.equal(account.code ?? '0x', await call(c, 'eth_getCode', ['0x' + address, '0x0']), address);
    }
    // The well-known test key's 50M AVAX, and Multicall3's code.
    assert.equal(
      genesis.alloc['8db97c7cece249c2b98bdc0226cc4c2a57bf52fc'].balance,
      '0x295be96e64066972000000',
    );
    assert.ok(genesis.alloc['ca11bde05977b3631167028862be2a173976ca11'].code.length > 2);
  });

  it('serves the json encoding under the chain id, parsed by @avalanche-sdk/client', async () => {
    const x = await client.pChain.getTx({ txID: ctx.xBlockchainID, encoding: 'json' });
    assert.deepEqual(
      x,
      (await rpc(`${net.url}/ext/bc/P`, 'platform.getTx', { txID: ctx.xBlockchainID, encoding: 'json' })).body
        .result,
    );
    const { signed } = await chainTx(ctx.xBlockchainID);
    assert.deepEqual(x.tx, {
      unsignedTx: {
        networkID: ctx.networkID,
        blockchainID: PRIMARY,
        outputs: [],
        inputs: [],
        memo: '0x',
        subnetID: PRIMARY,
        chainName: 'X-Chain',
        vmID: AVM,
        fxIDs: FXS,
        genesisData: Buffer.from(
          (signed.unsignedTx as pvmSerial.CreateChainTx).genesisData.toBytes().subarray(4),
        ).toString('base64'),
        subnetAuthorization: { signatureIndices: [] },
      },
      credentials: [],
      id: ctx.xBlockchainID,
    });
    const cJson = await client.pChain.getTx({ txID: ctx.cBlockchainID, encoding: 'json' });
    assert.equal(cJson.tx.id, ctx.cBlockchainID);
    assert.equal(cJson.tx.unsignedTx.chainName, 'C-Chain');
    assert.equal(
      JSON.parse(Buffer.from(cJson.tx.unsignedTx.genesisData, 'base64').toString()).config.chainId,
      43112,
    );
    assert.deepEqual(await client.pChain.getTxStatus({ txID: ctx.cBlockchainID }), { status: 'Committed' });
  });

  it('treats a chain id as the tx it is where a subnet is asked for', async () => {
    // The reference's Validates: the tx lookup succeeds, its type is not CreateSubnetTx.
    for (const method of ['validates', 'getSubnet']) {
      const answer = await pCall(net.url, `platform.${method}`, { subnetID: ctx.xBlockchainID });
      assert.equal(answer.error?.message, `"${ctx.xBlockchainID}" is not a subnet`, method);
    }
    const unknown = await pCall(net.url, 'platform.validates', { subnetID: ctx.avaxAssetID });
    assert.equal(unknown.error?.message, `problem retrieving subnet "${ctx.avaxAssetID}": not found`);
  });

  it('answers not found for an id that is no tx', async () => {
    const unknown = await pCall(net.url, 'platform.getTx', { txID: ctx.avaxAssetID });
    assert.equal(unknown.error?.message, "couldn't get tx: not found");
    assert.deepEqual(await pResult(net.url, 'platform.getTxStatus', { txID: ctx.avaxAssetID }), {
      status: 'Unknown',
    });
  });
});

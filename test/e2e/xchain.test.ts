/**
 * Issue 3: the X-chain driven with @avalabs/avalanchejs v5 (unchanged) and @avalanche-sdk/client:
 * genesis UTXOs, AVAX transfers, a new fungible asset, an NFT minted and transferred, exports to
 * the P- and C-chains' shared memory — each accepted and visible in getTx (hex and json),
 * getUTXOs, balances, blocks and the index — and durability across SIGKILL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  avaxSerial,
  avm,
  avmSerial,
  pvm,
  addTxSignatures,
  Byte,
  Context,
  Int,
  OutputOwnersList,
  Stringpr,
  TransferableOutput,
  utils,
  Input,
  Utxo,
} from '@avalabs/avalanchejs';
import { createAvalancheClient, createAvalancheWalletClient } from '@avalanche-sdk/client';
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { startDevnet, tempDir, type Devnet } from '../helpers/devnet.js';
import {
  amountOf,
  avaxBase,
  fungibleAssetTx,
  Bytes,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_X,
  inputFrom,
  issue,
  NftMintOperation,
  NftMintOutput,
  NftTransferOperation,
  NftTransferOutput,
  owners,
  richestUtxo,
  secpOut,
  signWith,
  signedBytes,
  checkedHex,
  transferableOp as transferableOpOf,
  TransferOutput,
  utxosOf,
  waitAccepted,
  xCall,
  xResult,
} from './xchain-helpers.js';
import { innerHex, unwrapContainer } from './proposer-helpers.js';

const RECIPIENT_X = 'X-local1ur873jhz9qnaqv5qthk5sn3e8nj3e0kmggalnu';
const RECIPIENT = utils.bech32ToBytes(RECIPIENT_X);

describe('X-chain with avalanchejs v5', () => {
  let net: Devnet;
  let url: string;
  let ctx: Context.Context;
  const xApi = () => new avm.AVMApi(url);

  before(async () => {
    net = await startDevnet({ dataDir: tempDir() });
    url = net.url;
    ctx = await Context.getContextFromURI(url);
  });
  after(async () => {
    await net?.stop();
  });

  /** The block holding a tx, found by walking down from the tip. */
  async function blockWith(txID: string): Promise<any> {
    const { height } = await xResult(url, 'avm.getHeight');
    for (let h = Number(height); h > 0; h--) {
      const { block } = await xResult(url, 'avm.getBlockByHeight', { height: h, encoding: 'json' });
      if (block.txs.some((t: any) => t.id === txID)) return block;
    }
    throw new Error(`no block holds ${txID}`);
  }

  /** Everything an accepted tx must show: hex and json getTx, its block, and the tx index. */
  async function checkVisible(txID: string, signed: avaxSerial.SignedTx): Promise<any> {
    const { tx: hex } = await xResult(url, 'avm.getTx', { txID });
    assert.equal(hex, utils.bufferToHex(utils.addChecksum(signedBytes(signed))));
    const parsed = await xApi().getTx({ txID });
    assert.equal(parsed.unsignedTx._type, signed.unsignedTx._type);
    const { tx, encoding } = await xResult(url, 'avm.getTx', { txID, encoding: 'json' });
    assert.equal(encoding, 'json');
    assert.equal(tx.id, txID);
    assert.equal(tx.unsignedTx.networkID, 12345);
    assert.equal(tx.unsignedTx.blockchainID, ctx.xBlockchainID);
    assert.equal(tx.credentials.length, signed.credentials.length);
    for (const c of tx.credentials) assert.match(c.credential.signatures[0], /^0x[0-9a-f]{130}$/);
    const block = await blockWith(txID);
    const byId = await xResult(url, 'avm.getBlock', { blockID: block.id, encoding: 'hex' });
    assert.equal(byId.encoding, 'hex');
    const indexed = await xResult(
      url,
      'index.getContainerByID',
      { id: txID, encoding: 'hex' },
      '/ext/index/X/tx',
    );
    assert.equal(indexed.id, txID);
    assert.equal(indexed.bytes, hex);
    // The block container is a proposervm block around the X-chain block, named by its own id.
    // Position n holds height n + 1: the genesis block is not indexed, as on the reference.
    const atHeight = await xResult(
      url,
      'index.getContainerByIndex',
      { index: block.height - 1, encoding: 'hex' },
      '/ext/index/X/block',
    );
    const wrapped = unwrapContainer(atHeight.bytes);
    assert.equal(wrapped.innerId, block.id);
    assert.equal(atHeight.id, wrapped.id);
    const blockIndexed = await xResult(
      url,
      'index.getContainerByID',
      { id: wrapped.id },
      '/ext/index/X/block',
    );
    assert.equal(innerHex(blockIndexed), byId.block);
    assert.equal(blockIndexed.index, String(block.height - 1));
    return tx;
  }

  it('lists the prefunded key’s genesis UTXO on every alias of the chain', async () => {
    const { utxos } = await xApi().getUTXOs({ addresses: [EWOQ_X] });
    assert.equal(utxos.length, 1);
    assert.equal(utxos[0].getAssetId(), ctx.avaxAssetID);
    assert.equal(utxos[0].utxoId.txID.toString(), ctx.avaxAssetID);
    assert.equal(amountOf(utxos[0]), 300_000_000n * 1_000_000_000n);
    for (const path of ['/ext/bc/avm', `/ext/bc/${ctx.xBlockchainID}`, '/ext/X']) {
      const r = await xResult(url, 'xvm.getUTXOs', { addresses: [EWOQ_X] }, path);
      assert.equal(r.numFetched, '1');
    }
    const desc = await xResult(url, 'avm.getAssetDescription', { assetID: 'AVAX' });
    assert.deepEqual(desc, {
      assetID: ctx.avaxAssetID,
      name: 'Avalanche',
      symbol: 'AVAX',
      denomination: '9',
    });
    const genesis = await xResult(url, 'avm.getBlockByHeight', { height: '0', encoding: 'json' });
    assert.equal(genesis.block.height, 0);
    assert.deepEqual(genesis.block.txs, []);
    assert.deepEqual(await xResult(url, 'avm.getTxFee'), { txFee: '1000000', createAssetTxFee: '1000000' });
  });

  it('serves the genesis CreateAssetTx under the AVAX asset id, its outputs the genesis UTXOs', async () => {
    const signed = await xApi().getTx({ txID: ctx.avaxAssetID });
    assert.ok(signed.unsignedTx instanceof avmSerial.CreateAssetTx);
    // avalanchejs types the fields private; they are plain properties at run time.
    const tx = signed.unsignedTx as any;
    assert.equal(tx.name.value(), 'Avalanche');
    assert.equal(tx.symbol.value(), 'AVAX');
    assert.deepEqual([...tx.denomination.toBytes()], [9]);
    assert.equal(signed.credentials.length, 0);
    const outputs = tx.initialStates.flatMap((s: any) => s.outputs) as TransferOutput[];
    const total = (await xResult(url, 'devnet.getGenesis', {}, '/ext/devnet')).xChain.utxos.length;
    assert.equal(outputs.length, total);
    // Output i of the tx is the genesis UTXO (asset id, i) the node lists.
    const { utxos } = await xApi().getUTXOs({ addresses: [EWOQ_X] });
    const mine = outputs.findIndex((o) => o.outputOwners.addrs[0].toString('local') === EWOQ_X.slice(2));
    assert.equal(utxos[0].utxoId.outputIdx.value(), mine);
    assert.equal(outputs[mine].amount(), amountOf(utxos[0]));

    const json = await xResult(url, 'avm.getTx', { txID: ctx.avaxAssetID, encoding: 'json' });
    assert.equal(json.tx.id, ctx.avaxAssetID);
    // As avm.NewGenesis builds it: written before the chain has an id, so the empty blockchain id.
    assert.equal(json.tx.unsignedTx.blockchainID, '11111111111111111111111111111111LpoYY');
    assert.equal(tx.baseTx.BlockchainId.toString(), '11111111111111111111111111111111LpoYY');
    assert.equal(json.tx.unsignedTx.initialStates[0].outputs.length, total);
    assert.equal(json.tx.unsignedTx.initialStates[0].outputs[mine].amount, Number(amountOf(utxos[0])));
    assert.equal(json.tx.unsignedTx.initialStates[0].outputs[mine].locktime, 0);
    assert.deepEqual(await xResult(url, 'avm.getTxStatus', { txID: ctx.avaxAssetID }), {
      status: 'Accepted',
    });
  });

  it('sends AVAX: accepted, in getTx, UTXOs, balances, blocks and the index', async () => {
    const before = await xResult(url, 'avm.getBalance', { address: RECIPIENT_X, assetID: 'AVAX' });
    const { utxos } = await xApi().getUTXOs({ addresses: [EWOQ_X] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 1_500_000_000n, [RECIPIENT]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi().issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);
    const json = await checkVisible(txID, tx.getSignedTx());
    assert.equal(json.unsignedTx.inputs[0].input.amount, 300_000_000_000_000_000);
    assert.ok(
      json.unsignedTx.outputs.some(
        (o: any) => o.output.addresses[0] === RECIPIENT_X && o.output.amount === 1_500_000_000,
      ),
    );

    const afterBalance = await xResult(url, 'avm.getBalance', { address: RECIPIENT_X, assetID: 'AVAX' });
    assert.equal(BigInt(afterBalance.balance) - BigInt(before.balance), 1_500_000_000n);
    assert.ok(afterBalance.utxoIDs.some((u: any) => u.txID === txID));
    const mine = await xResult(url, 'avm.getAllBalances', { address: EWOQ_X });
    assert.deepEqual(mine.balances, [
      { asset: 'AVAX', balance: String(300_000_000n * 10n ** 9n - 1_500_000_000n - 1_000_000n) },
    ]);
    const recipientUtxos = await utxosOf(url, RECIPIENT_X);
    assert.ok(recipientUtxos.some((u) => u.utxoId.txID.toString() === txID));
    const { status } = await xApi().getTxStatus({ txID });
    assert.equal(status, 'Accepted');
  });

  it('counts in balances only what the address holds alone and unlocked, unless includePartial', async () => {
    const holder = utils.format('X', 'local', new Uint8Array(20).fill(0x42));
    const holderAddr = utils.bech32ToBytes(holder);
    const future = BigInt(Math.floor(Date.now() / 1000) + 365 * 24 * 3600);
    const { utxos } = await xApi().getUTXOs({ addresses: [EWOQ_X] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 1_000n, [holderAddr]),
      // Shared with another address, though either one alone may spend it.
      TransferableOutput.fromNative(ctx.avaxAssetID, 20_000n, [holderAddr, RECIPIENT], 0n, 1),
      TransferableOutput.fromNative(ctx.avaxAssetID, 300_000n, [holderAddr, RECIPIENT], 0n, 2),
      TransferableOutput.fromNative(ctx.avaxAssetID, 4_000_000n, [holderAddr], future),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi().issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);

    const alone = await xResult(url, 'avm.getBalance', { address: holder, assetID: 'AVAX' });
    assert.equal(alone.balance, '1000');
    assert.equal(alone.utxoIDs.length, 1);
    assert.deepEqual((await xResult(url, 'avm.getAllBalances', { address: holder })).balances, [
      { asset: 'AVAX', balance: '1000' },
    ]);
    const partial = await xResult(url, 'avm.getBalance', {
      address: holder,
      assetID: 'AVAX',
      includePartial: true,
    });
    assert.equal(partial.balance, '4321000');
    assert.equal(partial.utxoIDs.length, 4);
    assert.ok(partial.utxoIDs.every((u: any) => u.txID === txID));
    const all = await xResult(url, 'avm.getAllBalances', { address: holder, includePartial: true });
    assert.deepEqual(all.balances, [{ asset: 'AVAX', balance: '4321000' }]);
  });

  it('answers in hexc and hexnc, and refuses json where it answers bytes', async () => {
    const { utxos } = await xApi().getUTXOs({ addresses: [EWOQ_X] });
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 7_000_000n, [RECIPIENT]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const bytes = signedBytes(tx.getSignedTx());
    // issueTx decodes the encoding it is told: unchecked hex is taken without a checksum.
    const { txID } = await xResult(url, 'avm.issueTx', { tx: utils.bufferToHex(bytes), encoding: 'hexnc' });
    await waitAccepted(url, txID);
    const hexnc = await xResult(url, 'avm.getTx', { txID, encoding: 'HEXNC' });
    assert.deepEqual(hexnc, { tx: utils.bufferToHex(bytes), encoding: 'hexnc' });
    const hexc = await xResult(url, 'avm.getTx', { txID, encoding: 'hexc' });
    assert.deepEqual(hexc, { tx: checkedHex(bytes), encoding: 'hexc' });
    const block = await xResult(url, 'avm.getBlockByHeight', {
      height: (await xResult(url, 'avm.getHeight')).height,
      encoding: 'hexnc',
    });
    // Inside a block a tx is written without its own codec version.
    assert.ok(block.block.includes(utils.bufferToHex(bytes).slice(6)));

    const page = await xResult(url, 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'hexnc' });
    assert.equal(page.encoding, 'hexnc');
    assert.ok(page.utxos.length > 0, 'EWOQ has UTXOs');
    assert.ok(page.utxos.every((u: string) => /^0x[0-9a-f]+$/.test(u)));
    const json = await xCall(url, 'avm.getUTXOs', { addresses: [EWOQ_X], encoding: 'json' });
    assert.match(json.error!.message, /^couldn't encode UTXO \w+ as string: unsupported encoding in method$/);
    const issued = await xCall(url, 'avm.issueTx', { tx: checkedHex(bytes), encoding: 'json' });
    assert.equal(issued.error!.message, 'problem decoding transaction: unsupported encoding in method');
    const unknown = await xCall(url, 'avm.getTx', { txID, encoding: 'cb58' });
    assert.match(unknown.error!.message, /couldn't unmarshal an argument/);
  });

  it('creates a fungible asset and transfers it', async () => {
    const signed = await fungibleAssetTx(url, ctx, {
      name: 'Flurry Token',
      symbol: 'FLRY',
      denomination: 2,
      supply: 1_000_000n,
    });
    const assetID = await issue(url, signed);
    await waitAccepted(url, assetID);
    const json = await checkVisible(assetID, signed);
    assert.equal(json.unsignedTx.symbol, 'FLRY');
    const desc = await xResult(url, 'avm.getAssetDescription', { assetID });
    assert.deepEqual(desc, { assetID, name: 'Flurry Token', symbol: 'FLRY', denomination: '2' });

    // Transfer 250 units with avalanchejs's own builder (the fee is paid in AVAX).
    const utxos = await utxosOf(url, EWOQ_X);
    const send = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(assetID, 250n, [RECIPIENT]),
    ]);
    await addTxSignatures({ unsignedTx: send, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi().issueSignedTx(send.getSignedTx());
    await waitAccepted(url, txID);
    await checkVisible(txID, send.getSignedTx());
    const theirs = await xResult(url, 'avm.getBalance', { address: RECIPIENT_X, assetID });
    assert.equal(theirs.balance, '250');
    const mine = await xResult(url, 'avm.getAllBalances', { address: EWOQ_X });
    assert.deepEqual(
      mine.balances.find((b: any) => b.asset === assetID),
      { asset: assetID, balance: '999750' },
    );
  });

  it('mints an NFT and transfers it', async () => {
    const fee = ctx.baseTxFee;
    // 1. An NFT family whose minter is the test key.
    let utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const create = new avmSerial.CreateAssetTx(
      avaxBase(
        ctx,
        [secpOut(ctx.avaxAssetID, amountOf(utxo) - ctx.createAssetTxFee, [EWOQ_ADDR])],
        [inputFrom(utxo)],
      ),
      new Stringpr('Flurry Art'),
      new Stringpr('ART'),
      new Byte(new Uint8Array([0])),
      [new avmSerial.InitialState(new Int(1), [new (NftMintOutput())(new Int(7), owners([EWOQ_ADDR]))])],
    );
    const assetID = await issue(url, await signWith(create, ['secp']));
    await waitAccepted(url, assetID);
    // The change output is index 0, the mint output index 1.
    const mintUtxoId = avaxSerial.UTXOID.fromNative(assetID, 1);

    // 2. Mint one NFT with payload "hello" to the test key.
    utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const payload = new Bytes(new TextEncoder().encode('hello'));
    const mint = new avmSerial.OperationTx(
      avaxBase(ctx, [secpOut(ctx.avaxAssetID, amountOf(utxo) - fee, [EWOQ_ADDR])], [inputFrom(utxo)]),
      [
        transferableOpOf(
          assetID,
          [mintUtxoId],
          new (NftMintOperation())(
            Input.fromNative([0]),
            new Int(7),
            payload,
            new OutputOwnersList([owners([EWOQ_ADDR])]),
          ),
        ),
      ],
    );
    const mintSigned = await signWith(mint, ['secp', 'nft']);
    const mintID = await issue(url, mintSigned);
    await waitAccepted(url, mintID);
    const mintJson = await checkVisible(mintID, mintSigned);
    assert.equal(mintJson.unsignedTx.operations[0].operation.groupID, 7);
    // nftfx outputs marshal from a map, members in alphabetical order.
    const createJson = (await xResult(url, 'avm.getTx', { txID: assetID, encoding: 'json' })).tx;
    assert.deepEqual(Object.keys(createJson.unsignedTx.initialStates[0].outputs[0]), [
      'addresses',
      'groupID',
      'locktime',
      'threshold',
    ]);
    // getAssetDescription of the family; of a tx that creates no asset and of an id no tx has,
    // the reference's errors.
    assert.deepEqual(await xResult(url, 'avm.getAssetDescription', { assetID }), {
      assetID,
      name: 'Flurry Art',
      symbol: 'ART',
      denomination: '0',
    });
    const notAsset = await xCall(url, 'avm.getAssetDescription', { assetID: mintID });
    assert.equal(notAsset.error?.message, "transaction doesn't create an asset");
    const noTx = await xCall(url, 'avm.getAssetDescription', {
      assetID: utils.base58check.encode(new Uint8Array(32).fill(3)),
    });
    assert.equal(noTx.error?.message, 'not found');
    const nft = (await utxosOf(url, EWOQ_X)).find(
      (u: Utxo) => u.utxoId.txID.toString() === mintID && u.getAssetId() === assetID,
    );
    assert.ok(nft, 'the minted NFT is a UTXO of the test key');

    // 3. Transfer it to the recipient.
    utxo = await richestUtxo(url, EWOQ_X, ctx.avaxAssetID);
    const transfer = new avmSerial.OperationTx(
      avaxBase(ctx, [secpOut(ctx.avaxAssetID, amountOf(utxo) - fee, [EWOQ_ADDR])], [inputFrom(utxo)]),
      [
        transferableOpOf(
          assetID,
          [nft.utxoId],
          new (NftTransferOperation())(
            Input.fromNative([0]),
            new (NftTransferOutput())(new Int(7), payload, owners([RECIPIENT])),
          ),
        ),
      ],
    );
    const transferSigned = await signWith(transfer, ['secp', 'nft']);
    const transferID = await issue(url, transferSigned);
    await waitAccepted(url, transferID);
    const transferJson = await checkVisible(transferID, transferSigned);
    assert.deepEqual(Object.keys(transferJson.unsignedTx.operations[0].operation.output), [
      'addresses',
      'groupID',
      'locktime',
      'payload',
      'threshold',
    ]);
    assert.equal(transferJson.unsignedTx.operations[0].operation.output.payload, '0x68656c6c6f');
    const theirs = await utxosOf(url, RECIPIENT_X);
    assert.ok(theirs.some((u) => u.utxoId.txID.toString() === transferID && u.getAssetId() === assetID));
    assert.ok(
      !(await utxosOf(url, EWOQ_X)).some(
        (u) => u.utxoId.txID.toString() === mintID && u.getAssetId() === assetID,
      ),
    );
  });

  it('exports AVAX to the P- and C-chains’ shared memory', async () => {
    for (const [chain, alias] of [
      [ctx.pBlockchainID, 'P'],
      [ctx.cBlockchainID, 'C'],
    ] as const) {
      const utxos = await utxosOf(url, EWOQ_X);
      const exp = avm.newExportTx(ctx, chain, [EWOQ_ADDR], utxos, [
        TransferableOutput.fromNative(ctx.avaxAssetID, 2_000_000_000n, [EWOQ_ADDR]),
      ]);
      await addTxSignatures({ unsignedTx: exp, privateKeys: [EWOQ_KEY] });
      const { txID } = await xApi().issueSignedTx(exp.getSignedTx());
      await waitAccepted(url, txID);
      const json = await checkVisible(txID, exp.getSignedTx());
      assert.equal(json.unsignedTx.destinationChain, chain);
      assert.equal(json.unsignedTx.exportedOutputs[0].output.amount, 2_000_000_000);
      // The importing side lists the atomic UTXO (numbered after the tx's local outputs).
      const path = alias === 'P' ? '/ext/bc/P' : '/ext/bc/C/avax';
      const method = alias === 'P' ? 'platform.getUTXOs' : 'avax.getUTXOs';
      const probe = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { addresses: [`${alias}-${EWOQ_X.slice(2)}`], sourceChain: 'X', encoding: 'hex' },
        }),
      });
      assert.equal(probe.status, 200, `${path} answers`);
      const atomic = (await probe.json()) as any;
      assert.ok(atomic.result, JSON.stringify(atomic.error));
      const parsed = (atomic.result.utxos as string[]).map((h) =>
        avmSerial.getAVMManager().unpack(utils.hexToBuffer(h), Utxo),
      );
      const exported = parsed.find((u) => u.utxoId.txID.toString() === txID);
      assert.ok(exported, `${alias} sees the exported UTXO`);
      assert.equal(exported.utxoId.outputIdx.value(), json.unsignedTx.outputs.length);
      assert.equal(amountOf(exported), 2_000_000_000n);
    }
  });

  it('imports AVAX the P-chain exported, once', async () => {
    const pApi = new pvm.PVMApi(url);
    // The second prefunded key receives the export and signs the import.
    const second = net.facts.keys[1];
    const SECOND_X = second.xAddress;
    const SECOND = utils.bech32ToBytes(SECOND_X);
    const secondKey = utils.hexToBuffer(second.privateKey);
    const EWOQ_P = `P-${EWOQ_X.slice(2)}`;
    const exp = pvm.newExportTx(
      {
        feeState: await pApi.getFeeState(),
        fromAddressesBytes: [EWOQ_ADDR],
        utxos: (await pApi.getUTXOs({ addresses: [EWOQ_P] })).utxos,
        destinationChainId: ctx.xBlockchainID,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 4_000_000_000n, [SECOND])],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: exp, privateKeys: [EWOQ_KEY] });
    const { txID: exportID } = await pApi.issueSignedTx(exp.getSignedTx());
    let atomic: Utxo[] = [];
    for (let i = 0; i < 200 && atomic.length === 0; i++) {
      atomic = (await utxosOf(url, SECOND_X, 'P')).filter((u) => u.utxoId.txID.toString() === exportID);
      if (atomic.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(atomic.length, 1, 'X lists the atomic UTXO exported from P');
    const before = await xResult(url, 'avm.getBalance', { address: SECOND_X, assetID: 'AVAX' });

    const imp = avm.newImportTx(ctx, ctx.pBlockchainID, atomic, [SECOND], [SECOND]);
    await addTxSignatures({ unsignedTx: imp, privateKeys: [secondKey] });
    const { txID } = await xApi().issueSignedTx(imp.getSignedTx());
    await waitAccepted(url, txID);
    const json = await checkVisible(txID, imp.getSignedTx());
    assert.equal(json.unsignedTx.sourceChain, ctx.pBlockchainID);
    assert.equal(json.unsignedTx.importedInputs[0].txID, exportID);
    const after = await xResult(url, 'avm.getBalance', { address: SECOND_X, assetID: 'AVAX' });
    assert.equal(BigInt(after.balance) - BigInt(before.balance), 4_000_000_000n - ctx.baseTxFee);
    assert.deepEqual(await utxosOf(url, SECOND_X, 'P'), [], 'the atomic UTXO left shared memory');

    // Importing it again is a double spend: refused in the words of shared memory, nothing changes.
    const again = avm.newImportTx(ctx, ctx.pBlockchainID, atomic, [EWOQ_ADDR], [SECOND]);
    await addTxSignatures({ unsignedTx: again, privateKeys: [secondKey] });
    const { error } = await xCall(url, 'avm.issueTx', {
      tx: utils.bufferToHex(utils.addChecksum(again.getSignedTx().toBytes())),
    });
    assert.equal(error?.code, -32000);
    assert.equal(error!.message, 'not found');
    assert.deepEqual(await xResult(url, 'avm.getBalance', { address: SECOND_X, assetID: 'AVAX' }), after);
  });

  it('answers @avalanche-sdk/client X-chain reads', async () => {
    const client: any = createAvalancheClient({
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
    const { height } = await client.xChain.getHeight();
    assert.ok(Number(height) >= 6);
    const desc = await client.xChain.getAssetDescription({ assetID: 'AVAX' });
    assert.equal(desc.symbol, 'AVAX');
    const utxos = await client.xChain.getUTXOs({ addresses: [EWOQ_X] });
    assert.ok(Number(utxos.numFetched) >= 1);
    const all = await client.xChain.getAllBalances({ addresses: [RECIPIENT_X] });
    assert.ok(all.balances.some((b: any) => b.asset === 'AVAX'));
    const fee = await client.xChain.getTxFee();
    assert.equal(String(fee.txFee), '1000000');
    const block = await client.xChain.getBlockByHeight({ height: 1, encoding: 'hex' });
    assert.match(block.block, /^0x0000/);
    const range = await client.indexBlock.xChain.getContainerRange({
      startIndex: 0,
      numToFetch: 3,
      encoding: 'hex',
    } as any);
    assert.equal(range.containers.length, 3);
    // The legacy vertex index is readable and empty on a chain born after the vertex era.
    const vtx = await xCall(url, 'index.getLastAccepted', { encoding: 'hex' }, '/ext/index/X/vtx');
    assert.equal(vtx.error?.message, 'no containers have been accepted');
  });

  it('accepts a base tx sent with the @avalanche-sdk/client wallet', async () => {
    const account = privateKeyToAvalancheAccount(utils.bufferToHex(EWOQ_KEY));
    const wallet: any = createAvalancheWalletClient({
      account,
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
    const to = net.facts.keys[2].xAddress;
    const before = await xResult(url, 'avm.getBalance', { address: to, assetID: 'AVAX' });
    const prepared = await wallet.xChain.prepareBaseTxn({
      outputs: [{ addresses: [to], amount: 123_000_000n }],
    });
    const { txHash } = await wallet.sendXPTransaction(prepared);
    await waitAccepted(url, txHash);
    const after = await xResult(url, 'avm.getBalance', { address: to, assetID: 'AVAX' });
    assert.equal(BigInt(after.balance) - BigInt(before.balance), 123_000_000n);
  });

  it('pages getUTXOs with endIndex and words address errors as the reference does', async () => {
    const all = await xResult(url, 'avm.getUTXOs', { addresses: [EWOQ_X, RECIPIENT_X] });
    assert.ok(all.utxos.length >= 4);
    const paged: string[] = [];
    let startIndex: unknown;
    for (let i = 0; i < 50; i++) {
      const page = await xResult(url, 'avm.getUTXOs', {
        addresses: [RECIPIENT_X, EWOQ_X],
        limit: 1,
        startIndex,
      });
      if (page.numFetched === '0') break;
      assert.equal(page.numFetched, '1');
      paged.push(...page.utxos);
      startIndex = page.endIndex;
    }
    assert.deepEqual([...paged].sort(), [...all.utxos].sort());
    // A search that finds nothing still names where it stopped: the last address searched.
    const nobody = utils.format('X', 'local', new Uint8Array(20).fill(0xee));
    const empty = await xResult(url, 'avm.getUTXOs', { addresses: [nobody] });
    assert.deepEqual(empty.endIndex, { address: nobody, utxo: '11111111111111111111111111111111LpoYY' });
    const fail = async (params: unknown) => (await xCall(url, 'avm.getUTXOs', params)).error?.message;
    assert.equal(await fail({ addresses: [] }), 'no addresses provided');
    assert.equal(
      await fail({ addresses: ['X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5'] }),
      'couldn\'t parse address "X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5": expected hrp "local" but got "avax"',
    );
    assert.match(
      (await fail({ addresses: [`P-${EWOQ_X.slice(2)}`] }))!,
      /mismatched chainIDs: expected "2eNy1m.*" but got "1111.*LpoYY"/,
    );
    assert.match(
      (await fail({ addresses: ['local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] }))!,
      /no separator found in address/,
    );
    assert.match(
      (await fail({ addresses: [EWOQ_X], sourceChain: 'Z' }))!,
      /^problem parsing source chainID "Z"/,
    );
    const tooMany = Array.from({ length: 1025 }, () => EWOQ_X);
    assert.equal(
      await fail({ addresses: tooMany }),
      'number of addresses given, 1025, exceeds maximum, 1024',
    );
    // A raw cb58 short id is an address too.
    const raw = utils.base58check.encode(EWOQ_ADDR);
    assert.equal(
      (await xResult(url, 'avm.getUTXOs', { addresses: [raw] })).numFetched,
      (await xResult(url, 'avm.getUTXOs', { addresses: [EWOQ_X] })).numFetched,
    );
  });

  it('keeps accepted blocks and UTXOs across SIGKILL', async () => {
    const { height } = await xResult(url, 'avm.getHeight');
    const before = await xResult(url, 'avm.getUTXOs', { addresses: [EWOQ_X, RECIPIENT_X] });
    await net.kill();
    net = await startDevnet({ dataDir: net.dataDir });
    url = net.url;
    assert.equal((await xResult(url, 'avm.getHeight')).height, height);
    const after = await xResult(url, 'avm.getUTXOs', { addresses: [EWOQ_X, RECIPIENT_X] });
    assert.deepEqual(after.utxos.sort(), before.utxos.sort());
    // And the chain continues from the last accepted block.
    const utxos = await utxosOf(url, EWOQ_X);
    const tx = avm.newBaseTx(ctx, [EWOQ_ADDR], utxos, [
      TransferableOutput.fromNative(ctx.avaxAssetID, 1n, [RECIPIENT]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    const { txID } = await xApi().issueSignedTx(tx.getSignedTx());
    await waitAccepted(url, txID);
    const block = await blockWith(txID);
    assert.equal(block.height, Number(height) + 1);
    assert.equal(typeof block.time, 'number');
    const parent = await xResult(url, 'avm.getBlockByHeight', { height, encoding: 'json' });
    assert.equal(block.parentID, parent.block.id);
    const last = await xResult(url, 'index.getLastAccepted', {}, '/ext/index/X/block');
    assert.equal(unwrapContainer(last.bytes).innerId, block.id);
    assert.equal(last.id, unwrapContainer(last.bytes).id);
    assert.ok(!(await xCall(url, 'avm.getTx', { txID: 'not-an-id' })).result);
  });
});

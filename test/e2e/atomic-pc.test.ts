/**
 * AVAX between the P- and C-chains with @avalabs/avalanchejs v5 (`pvm.e` builders with the fee
 * state from `platform.getFeeState`, `evm.newImportTx`/`newExportTxFromBaseFee`), and the bad
 * input a wallet can send around atomic txs: a second import of the same UTXOs, an export to a
 * chain that is not a primary-network peer, a `sourceChain` the node does not know. Each is
 * refused in the reference's words and nothing moves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  avm,
  Context,
  evm,
  pvm,
  TransferableOutput,
  utils,
  type UnsignedTx,
} from '@avalabs/avalanchejs';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { waitIndexed } from './data-helpers.js';
import { executionRefusal } from './pchain-helpers.js';

const EWOQ_KEY = utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const BECH = 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const EWOQ = utils.bech32ToBytes(`P-${BECH}`);
const EWOQ_EVM = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
/** A well-formed chain id no chain has. */
const NO_CHAIN = utils.base58check.encode(new Uint8Array(32).fill(7));

async function until<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const signedHex = (tx: UnsignedTx) => utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes()));

describe('atomic txs between P and C with avalanchejs, and refused atomic input', () => {
  let net: Devnet;
  let context: Awaited<ReturnType<typeof Context.getContextFromURI>>;
  let pApi: pvm.PVMApi;
  let evmApi: evm.EVMApi;
  const P = () => `${net.url}/ext/bc/P`;
  const X = () => `${net.url}/ext/bc/X`;
  const AVAX = () => `${net.url}/ext/bc/C/avax`;

  before(async () => {
    net = await startDevnet();
    context = await Context.getContextFromURI(net.url);
    pApi = new pvm.PVMApi(net.url);
    evmApi = new evm.EVMApi(net.url);
  });
  after(async () => {
    await net?.stop();
  });

  const pBalance = async () => (await pApi.getBalance({ addresses: [`P-${BECH}`] })).balance;
  const cBalance = async () =>
    BigInt(await call(`${net.url}/ext/bc/C/rpc`, 'eth_getBalance', [EWOQ_EVM, 'latest']));
  const nonce = async () =>
    BigInt(await call(`${net.url}/ext/bc/C/rpc`, 'eth_getTransactionCount', [EWOQ_EVM, 'latest']));
  const baseFeeNano = async () => ((await evmApi.getBaseFee()) + 999_999_999n) / 1_000_000_000n;
  const signed = async <T extends UnsignedTx>(tx: T) => {
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    return tx;
  };
  const pExport = async (destination: string, amount: bigint) => {
    const { utxos } = await pApi.getUTXOs({ addresses: [`P-${BECH}`] });
    const feeState = await pApi.getFeeState();
    const tx = pvm.e.newExportTx(
      {
        destinationChainId: destination,
        fromAddressesBytes: [EWOQ],
        utxos,
        feeState,
        outputs: [TransferableOutput.fromNative(context.avaxAssetID, amount, [EWOQ])],
      },
      context,
    );
    return { tx: await signed(tx), feeState };
  };
  const committed = (txID: string) =>
    until(`${txID} committed`, async () => {
      const { status } = await pApi.getTxStatus({ txID });
      return status === 'Committed' ? status : undefined;
    });
  const atomicAccepted = (txID: string) =>
    until(`${txID} accepted on C`, async () => {
      const r = await call(AVAX(), 'avax.getAtomicTxStatus', { txID });
      return r.status === 'Accepted' ? r : undefined;
    });

  it('exports from P to C and imports there; the P fee is the one the SDK computed from the fee state', async () => {
    const before = await pBalance();
    const amount = 3_000_000_000n;
    const { tx, feeState } = await pExport(context.cBlockchainID, amount);
    const fee = pvm.calculateFee(tx.getTx(), context.platformFeeConfig.weights, feeState.price);
    const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
    await committed(txID);
    assert.equal(before - (await pBalance()), amount + fee);

    const { utxos } = await evmApi.getUTXOs({ addresses: [`C-${BECH}`], sourceChain: 'P' });
    assert.equal(utxos.length, 1);
    const c0 = await cBalance();
    const imp = await signed(
      evm.newImportTx(
        context,
        utils.hexToBuffer(EWOQ_EVM),
        [EWOQ],
        utxos,
        context.pBlockchainID,
        await baseFeeNano(),
      ),
    );
    const burned = utils.getBurnedAmountByTx(imp.getTx() as any, context).get(context.avaxAssetID)!;
    const { txID: importID } = await evmApi.issueSignedTx(imp.getSignedTx());
    const status = await atomicAccepted(importID);
    assert.match(status.blockHeight, /^\d+$/);
    assert.equal((await cBalance()) - c0, (amount - burned) * 1_000_000_000n);
    assert.equal((await evmApi.getUTXOs({ addresses: [`C-${BECH}`], sourceChain: 'P' })).utxos.length, 0);

    // The same import again: coreth's words (its shared-memory read finds nothing), and no credit.
    const again = await rpc(AVAX(), 'avax.issueTx', { tx: signedHex(imp), encoding: 'hex' });
    assert.equal(again.body.error.code, -32000);
    assert.match(
      again.body.error.message,
      new RegExp(`^failed to fetch import UTXOs from ${context.pBlockchainID} due to: not found`),
    );
    assert.equal((await cBalance()) - c0, (amount - burned) * 1_000_000_000n);
  });

  it('exports from C to P and imports there; a second import of those UTXOs is refused', async () => {
    const amount = 2_000_000_000n;
    const exp = await signed(
      evm.newExportTxFromBaseFee(
        context,
        await baseFeeNano(),
        amount,
        context.pBlockchainID,
        utils.hexToBuffer(EWOQ_EVM),
        [EWOQ],
        await nonce(),
      ),
    );
    const { txID } = await evmApi.issueSignedTx(exp.getSignedTx());
    await atomicAccepted(txID);

    const { utxos } = await pApi.getUTXOs({ addresses: [`P-${BECH}`], sourceChain: 'C' });
    assert.equal(utxos.length, 1);
    const feeState = await pApi.getFeeState();
    const build = (price = feeState.price) =>
      pvm.e.newImportTx(
        {
          sourceChainId: context.cBlockchainID,
          fromAddressesBytes: [EWOQ],
          toAddressesBytes: [EWOQ],
          utxos,
          feeState: { ...feeState, price },
        },
        context,
      );
    const imp = await signed(build());
    const fee = pvm.calculateFee(imp.getTx(), context.platformFeeConfig.weights, feeState.price);
    const before = await pBalance();
    const { txID: importID } = await pApi.issueSignedTx(imp.getSignedTx());
    await committed(importID);
    assert.equal((await pBalance()) - before, amount - fee);

    // A new import tx of the same UTXOs (a higher fee makes it another tx; a P-chain tx may not
    // carry a memo since Durango): the reference's words.
    const twice = await signed(build(feeState.price + 1n));
    const refused = await rpc(P(), 'platform.issueTx', { tx: signedHex(twice), encoding: 'hex' });
    assert.equal(
      refused.body.error.message,
      executionRefusal(twice, 'failed to get shared memory: not found'),
    );
    assert.equal((await pBalance()) - before, amount - fee);
  });

  it('lists a P export to X among the X-chain UTXOs with the X-chain type names (chainkit)', async () => {
    const { tx } = await pExport(context.xBlockchainID, 1_500_000_000n);
    const { txID } = await pApi.issueSignedTx(tx.getSignedTx());
    await committed(txID);
    await waitIndexed(net.url, net.facts.urls.data);
    const sdk = new Avalanche({ network: 'fuji', enableTelemetry: false, retryConfig: { strategy: 'none' } });
    const at = { serverURL: net.facts.urls.data };
    const page = await sdk.data.primaryNetwork.utxos.listByAddresses(
      { blockchainId: 'x-chain', addresses: `X-${BECH}` },
      at,
    );
    const utxos = page.result.utxos as any[];
    const exported = utxos.find((u) => u.creationTxHash === txID);
    assert.ok(exported, 'the atomic UTXO is listed');
    assert.equal(exported.createdOnChainId, context.pBlockchainID);
    assert.equal(exported.consumedOnChainId, context.xBlockchainID);
    assert.deepEqual(
      [...new Set(utxos.map((u) => u.utxoType))],
      ['transfer'],
      'one type name for X’s own and imported outputs',
    );
    const balances = await sdk.data.primaryNetwork.balances.listByAddresses(
      { blockchainId: 'x-chain', addresses: `X-${BECH}` },
      at,
    );
    const shared = (balances.balances as any).atomicMemoryUnlocked;
    assert.deepEqual(
      shared.map((b: any) => [b.sharedWithChainId, b.amount, b.utxoCount]),
      [[context.pBlockchainID, '1500000000', 1]],
    );
    // The exporting tx lists the atomic output as consumed on X.
    const got = (await sdk.data.primaryNetwork.transactions.get(
      { blockchainId: 'p-chain', txHash: txID },
      at,
    )) as any;
    assert.equal(got.destinationChain, context.xBlockchainID);
    const out = got.emittedUtxos.find((u: any) => u.consumedOnChainId === context.xBlockchainID);
    assert.equal(out.amount, '1500000000');
  });

  it('refuses an import with no atomic UTXOs on C', async () => {
    const tx = await signed(
      evm.newImportTx(
        context,
        utils.hexToBuffer(EWOQ_EVM),
        [EWOQ],
        [],
        context.xBlockchainID,
        await baseFeeNano(),
      ),
    );
    const { body } = await rpc(AVAX(), 'avax.issueTx', { tx: signedHex(tx), encoding: 'hex' });
    assert.deepEqual(body.error, { code: -32000, message: 'tx has no imported inputs', data: null });
  });

  it('refuses exports to a chain that is not a primary-network peer, in verify.SameSubnet’s words', async () => {
    const pBefore = await pBalance();
    const cBefore = await cBalance();
    const notFound = (id: string) =>
      `failed to get subnet of "${id}": problem retrieving blockchain "${id}": not found`;

    for (const [dest, why] of [
      [NO_CHAIN, notFound(NO_CHAIN)],
      [context.pBlockchainID, 'same chainID'],
    ]) {
      const { tx } = await pExport(dest, 1_000_000_000n);
      const { body } = await rpc(P(), 'platform.issueTx', { tx: signedHex(tx), encoding: 'hex' });
      assert.equal(body.error.message, executionRefusal(tx, why));
    }

    const { utxos } = await new avm.AVMApi(net.url).getUTXOs({ addresses: [`X-${BECH}`] });
    for (const [dest, why] of [
      [NO_CHAIN, notFound(NO_CHAIN)],
      [context.xBlockchainID, 'same chainID'],
    ]) {
      const tx = await signed(
        avm.newExportTx(context, dest, [EWOQ], utxos, [
          TransferableOutput.fromNative(context.avaxAssetID, 1_000_000_000n, [EWOQ]),
        ]),
      );
      const { body } = await rpc(X(), 'avm.issueTx', { tx: signedHex(tx), encoding: 'hex' });
      // The AVM answers its verifier's error as it is.
      assert.equal(body.error.message, why);
    }

    for (const [dest, why] of [
      [NO_CHAIN, notFound(NO_CHAIN)],
      [context.cBlockchainID, 'same chainID'],
    ]) {
      const tx = await signed(
        evm.newExportTxFromBaseFee(
          context,
          await baseFeeNano(),
          1_000_000_000n,
          dest,
          utils.hexToBuffer(EWOQ_EVM),
          [EWOQ],
          await nonce(),
        ),
      );
      const { body } = await rpc(AVAX(), 'avax.issueTx', { tx: signedHex(tx), encoding: 'hex' });
      assert.equal(body.error.message, `tx has wrong chain ID (${why})`);
    }
    assert.equal(await pBalance(), pBefore);
    assert.equal(await cBalance(), cBefore);
  });

  it('refuses an export built for another chain or network with BaseTx.Verify’s and coreth’s words', async () => {
    // A C-chain export of 1 AVAX to P, built with another context than the node's.
    const exportWith = async (built: typeof context) =>
      signed(
        evm.newExportTxFromBaseFee(
          built,
          await baseFeeNano(),
          1_000_000_000n,
          context.pBlockchainID,
          utils.hexToBuffer(EWOQ_EVM),
          [EWOQ],
          await nonce(),
        ),
      );
    const cTx = await exportWith({ ...context, cBlockchainID: context.xBlockchainID });
    const c = await rpc(AVAX(), 'avax.issueTx', { tx: signedHex(cTx), encoding: 'hex' });
    assert.equal(
      c.body.error.message,
      `tx has wrong chain ID (expected ${context.cBlockchainID}, got ${context.xBlockchainID})`,
    );
    const fuji = await exportWith({ ...context, networkID: 5 });
    const n = await rpc(AVAX(), 'avax.issueTx', { tx: signedHex(fuji), encoding: 'hex' });
    assert.equal(n.body.error.message, 'tx was issued with a different network ID (expected 12345, got 5)');

    const { utxos } = await pApi.getUTXOs({ addresses: [`P-${BECH}`] });
    const feeState = await pApi.getFeeState();
    const pTx = await signed(
      pvm.e.newExportTx(
        {
          destinationChainId: context.xBlockchainID,
          fromAddressesBytes: [EWOQ],
          utxos,
          feeState,
          outputs: [TransferableOutput.fromNative(context.avaxAssetID, 1_000_000_000n, [EWOQ])],
        },
        { ...context, networkID: 5 },
      ),
    );
    const p = await rpc(P(), 'platform.issueTx', { tx: signedHex(pTx), encoding: 'hex' });
    assert.equal(
      p.body.error.message,
      executionRefusal(pTx, 'metadata failed verification: tx has wrong network ID'),
    );
  });

  it('names an unknown sourceChain as the reference chain lookup does, on X, P and C', async () => {
    for (const [url, method, address] of [
      [X(), 'avm.getUTXOs', `X-${BECH}`],
      [P(), 'platform.getUTXOs', `P-${BECH}`],
      [AVAX(), 'avax.getUTXOs', `C-${BECH}`],
    ]) {
      for (const source of ['Q', NO_CHAIN]) {
        const { body } = await rpc(url, method, { addresses: [address], sourceChain: source });
        assert.deepEqual(
          body.error,
          {
            code: -32000,
            message: `problem parsing source chainID "${source}": there is no ID with alias: ${source}`,
            data: null,
          },
          method,
        );
      }
    }
  });
});

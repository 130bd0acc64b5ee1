/**
 * An L1's whole life through the public `@avalanche-sdk/client` wallet on a local devnet (the
 * SDK's own `avalancheLocal` chain), as its docs drive it: a subnet and a Subnet-EVM chain, the
 * conversion to an L1 validated by the devnet's nodes (their BLS keys and proofs of possession
 * from `info.getNodeID`), a validator registered from the manager's Warp message signed by those
 * nodes through the chain-data service's aggregator, its weight set the same way, its balance
 * topped up, its disabling by its deactivation owner's own wallet (twice), its re-activation and
 * removal, and a validator registered without balance. Each step is checked in the node's
 * answers (exact fees, `getL1Validator`, `getCurrentValidators`, `getSubnet`, `getTx`,
 * `getTxStatus`, the refund in the remaining-balance owner's balance) and in the data API through
 * `@avalanche-sdk/chainkit` (subnet details, `l1Validators`, each tx's `amountBurned`); chainkit
 * names a local devnet `fuji`, which the data service answers as well as `local`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { Avalanche } from '@avalanche-sdk/chainkit';
import { utils, Utxo, type Common } from '@avalabs/avalanchejs';
import { createAvalancheWalletClient } from '@avalanche-sdk/client';
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { encodeFunctionData, parseAbi, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { waitIndexed } from './data-helpers.js';
import { blsKey, registerPayload, testNodeId, weightPayload } from './pchain-helpers.js';
import { pChainFee, pChainTime } from './sdk-wallet-helpers.js';
import { evmClients, PRECOMPILES, SUBNET_EVM_VM, waitForChain } from './subnet-evm-helpers.js';

const AVAX = 1_000_000_000n;
const L1_CHAIN_ID = 77_031;
const WARP_ABI = parseAbi(['function sendWarpMessage(bytes payload) returns (bytes32)']);
/** What the continuous fee may take from a balance between two reads a few blocks apart. */
const FEW_SECONDS_OF_FEES = 100_000n;

type Key = { privateKey: string; pAddress: string; evmAddress: `0x${string}` };

describe('an L1 lifecycle through the @avalanche-sdk/client wallet', () => {
  let net: Devnet;
  // The SDK adds its X/P/C sub-clients only for Avalanche chain ids, which its types do not track.
  let wallet: any;
  let ownerWallet: any;
  let me: Key;
  let owner: Key;
  const chainkit = new Avalanche({
    network: 'fuji',
    enableTelemetry: false,
    retryConfig: { strategy: 'none' },
  });
  const at = () => ({ serverURL: net.facts.urls.data! });
  let subnetId: string;
  let chainId: string;
  let nodes: { nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } }[];
  const added = blsKey('sdk-wallet-l1/added');
  const addedNode = testNodeId(93);
  let validationId: string;
  const txs: Record<
    'convert' | 'register' | 'weight' | 'increase' | 'disable' | 'redisable' | 'remove',
    string
  > = {} as any;
  /** What each tx took from its payer and the P-chain burned: its fee and any balance it deposited. */
  const burnt = new Map<string, bigint>();

  const wallets = (key: Key) =>
    createAvalancheWalletClient({
      account: privateKeyToAvalancheAccount(key.privateKey),
      chain: avalancheLocal,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    }) as any;
  /** The SDK's whole issue path: sign, issue, then poll the status until accepted. */
  const issue = async (from: any, prepared: { chainAlias: 'P' }): Promise<string> => {
    const sent = await from.sendXPTransaction(prepared);
    await from.waitForTxn(sent);
    return sent.txHash;
  };
  const pBalance = async (address: string): Promise<bigint> =>
    (await wallet.pChain.getBalance({ addresses: [address] })).balance;
  const pTime = (): Promise<bigint> => pChainTime(wallet);
  const pFee = (tx: Common.UnsignedTx): Promise<bigint> => pChainFee(wallet, tx);
  /** The tx as `platform.getTx` shows it in JSON, after checking its status is Committed. */
  const committed = async (txID: string): Promise<any> => {
    assert.equal((await wallet.pChain.getTxStatus({ txID })).status, 'Committed');
    return (await wallet.pChain.getTx({ txID, encoding: 'json' })).tx.unsignedTx;
  };
  const bare = (address: string) => address.replace(/^P-/, '');
  const validatorsOf = async (): Promise<any[]> =>
    (await wallet.pChain.getCurrentValidators({ subnetID: subnetId })).validators;
  const listed = async (query: Record<string, unknown> = {}): Promise<any[]> => {
    await waitIndexed(net.url, net.facts.urls.data!);
    return (await chainkit.data.primaryNetwork.listL1Validators({ subnetId, ...query }, at())).result
      .validators;
  };

  /** The manager (the wallet's EVM account on the L1) sends `payload` through the Warp precompile. */
  async function emit(payload: Uint8Array): Promise<string> {
    const l1 = evmClients(
      `${net.url}/ext/bc/${chainId}/rpc`,
      L1_CHAIN_ID,
      privateKeyToAccount(me.privateKey as Hex),
    );
    const receipt = await l1.client.waitForTransactionReceipt({
      hash: await l1.wallet.sendTransaction({
        to: PRECOMPILES.warp as Hex,
        data: encodeFunctionData({ abi: WARP_ABI, functionName: 'sendWarpMessage', args: [toHex(payload)] }),
        chain: l1.chain,
      }),
    });
    assert.equal(receipt.status, 'success');
    const data = Buffer.from(receipt.logs[0]!.data.slice(2), 'hex');
    return data.subarray(64, 64 + Number(data.readBigUInt64BE(56))).toString('hex');
  }
  /** The L1's validators sign `message` through the data service's aggregator (chainkit). */
  async function signedByL1(message: string): Promise<string> {
    const { signedMessage } = await chainkit.data.signatureAggregator.aggregate(
      { network: 'fuji', signatureAggregatorRequest: { message } },
      at(),
    );
    return '0x' + signedMessage;
  }

  before(async () => {
    net = await startDevnet();
    const [first, second] = net.facts.keys;
    me = first as Key;
    owner = second as Key;
    wallet = wallets(me);
    ownerWallet = wallets(owner);
    const self = await call(`${net.url}/ext/info`, 'info.getNodeID');
    nodes = [self];
    for (const p of (await call(`${net.url}/ext/info`, 'info.peers')).peers)
      nodes.push(await call(`http://${p.ip}/ext/info`, 'info.getNodeID'));
  });
  after(async () => {
    await net?.stop();
  });

  it('creates a subnet and a Subnet-EVM chain with Warp on it, managed by the wallet’s EVM account', async () => {
    subnetId = await issue(
      wallet,
      await wallet.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [me.pAddress] } }),
    );
    chainId = await issue(
      wallet,
      await wallet.pChain.prepareCreateChainTxn({
        subnetId,
        vmId: SUBNET_EVM_VM,
        chainName: 'sdk l1',
        subnetAuth: [0],
        genesisData: {
          config: {
            chainId: L1_CHAIN_ID,
            feeConfig: { gasLimit: 15_000_000 },
            warpConfig: { blockTimestamp: 0 },
          },
          alloc: { [me.evmAddress.slice(2)]: { balance: '0x' + (10n ** 24n).toString(16) } },
          gasLimit: '0xe4e1c0',
          difficulty: '0x0',
          timestamp: '0x0',
        },
      }),
    );
    await waitForChain(net.url, chainId);
    assert.deepEqual(await wallet.pChain.validates({ subnetID: subnetId }), { blockchainIDs: [chainId] });
  });

  it('converts the subnet to an L1 validated by the devnet’s nodes, proved by their BLS keys', async () => {
    const before = await pBalance(me.pAddress);
    const convert = await wallet.pChain.prepareConvertSubnetToL1Txn({
      subnetId,
      blockchainId: chainId,
      managerContractAddress: me.evmAddress,
      subnetAuth: [0],
      validators: nodes.map((n) => ({
        nodeId: n.nodeID,
        nodePoP: n.nodePOP,
        weight: 100n,
        initialBalanceInAvax: AVAX,
        remainingBalanceOwner: { addresses: [owner.pAddress], threshold: 1 },
        deactivationOwner: { addresses: [me.pAddress], threshold: 1 },
      })),
    });
    const fee = await pFee(convert.tx);
    txs.convert = await issue(wallet, convert);
    burnt.set(txs.convert, BigInt(nodes.length) * AVAX + fee);
    assert.equal(before - (await pBalance(me.pAddress)), BigInt(nodes.length) * AVAX + fee);

    const tx = await committed(txs.convert);
    assert.deepEqual(
      [tx.subnetID, tx.chainID, tx.address, tx.validators.length],
      [subnetId, chainId, me.evmAddress.toLowerCase(), nodes.length],
    );
    const subnet = await wallet.pChain.getSubnet({ subnetID: subnetId });
    assert.deepEqual(
      [subnet.isPermissioned, subnet.managerChainID, subnet.managerAddress.toLowerCase()],
      [false, chainId, me.evmAddress.toLowerCase()],
    );
    const validators = await validatorsOf();
    assert.deepEqual(
      validators.map((v) => [v.nodeID, v.weight]).sort(),
      nodes.map((n) => [n.nodeID, '100']).sort(),
    );
    for (const v of validators) {
      const node = nodes.find((n) => n.nodeID === v.nodeID)!;
      const details = await wallet.pChain.getL1Validator({ validationID: v.validationID });
      assert.equal(details.publicKey, node.nodePOP.publicKey);
      assert.deepEqual(details.remainingBalanceOwner.addresses, [owner.pAddress]);
      assert.deepEqual(details.deactivationOwner.addresses, [me.pAddress]);
    }

    await waitIndexed(net.url, net.facts.urls.data!);
    const details = await chainkit.data.primaryNetwork.getSubnetById({ subnetId }, at());
    assert.equal(details.isL1, true);
    assert.equal(details.l1ConversionTransactionHash, txs.convert);
    assert.deepEqual(details.l1ValidatorManagerDetails, {
      blockchainId: chainId,
      contractAddress: me.evmAddress.toLowerCase(),
    });
    assert.deepEqual(
      (await listed()).map((v) => [v.nodeId, v.weight, v.remainingBalanceOwner.addresses]).sort(),
      nodes.map((n) => [n.nodeID, 100, [bare(owner.pAddress)]]).sort(),
    );
  });

  it('registers a validator from the manager’s Warp message, signed by the L1 through the aggregator', async () => {
    const ownerBytes = utils.bech32ToBytes(owner.pAddress);
    const payload = registerPayload(subnetId, addedNode, added, (await pTime()) + 3600n, ownerBytes, 50n);
    const register = await wallet.pChain.prepareRegisterL1ValidatorTxn({
      initialBalanceInAvax: 2n * AVAX,
      blsSignature: utils.bufferToHex(added.pop),
      message: await signedByL1(await emit(payload)),
    });
    const [before, fee] = [await pBalance(me.pAddress), await pFee(register.tx)];
    txs.register = await issue(wallet, register);
    burnt.set(txs.register, 2n * AVAX + fee);
    assert.equal(before - (await pBalance(me.pAddress)), 2n * AVAX + fee);

    // The validation id is the hash of the registration message.
    validationId = utils.base58check.encode(sha256(payload));
    const tx = await committed(txs.register);
    assert.equal(tx.balance, Number(2n * AVAX), 'a JSON number, as AvalancheGo marshals a uint64');
    const registered = (await validatorsOf()).find((v) => v.nodeID === addedNode);
    assert.deepEqual([registered?.validationID, registered?.weight], [validationId, '50']);
    const details = await wallet.pChain.getL1Validator({ validationID: validationId });
    assert.deepEqual(
      [details.subnetID, details.nodeID, details.publicKey, details.weight, details.minNonce],
      [subnetId, addedNode, utils.bufferToHex(added.publicKey), 50n, 0n],
    );
    assert.deepEqual(details.remainingBalanceOwner.addresses, [owner.pAddress]);
    assert.deepEqual(details.deactivationOwner.addresses, [owner.pAddress]);
    assert.ok(details.balance > 2n * AVAX - FEW_SECONDS_OF_FEES && details.balance <= 2n * AVAX);

    const [fromData] = await listed({ l1ValidationId: validationId });
    assert.deepEqual(
      [fromData?.validationId, fromData?.nodeId, fromData?.weight, fromData?.remainingBalanceOwner],
      [validationId, addedNode, 50, { addresses: [bare(owner.pAddress)], threshold: 1 }],
    );
  });

  it('sets its weight from the manager’s weight message, signed by the L1 through the aggregator', async () => {
    const weight = await wallet.pChain.prepareSetL1ValidatorWeightTxn({
      message: await signedByL1(await emit(weightPayload(validationId, 0n, 70n))),
    });
    const [before, fee] = [await pBalance(me.pAddress), await pFee(weight.tx)];
    txs.weight = await issue(wallet, weight);
    burnt.set(txs.weight, fee);
    assert.equal(before - (await pBalance(me.pAddress)), fee);
    await committed(txs.weight);
    const details = await wallet.pChain.getL1Validator({ validationID: validationId });
    assert.deepEqual([details.weight, details.minNonce], [70n, 1n]);
    const { validatorSets } = await wallet.pChain.getAllValidatorsAt({ height: 'proposed' });
    assert.equal(validatorSets[subnetId].totalWeight, String(100 * nodes.length + 70));
    const [fromData] = await listed({ l1ValidationId: validationId });
    assert.equal(fromData?.weight, 70);
  });

  it('tops up its balance: the validator gains the amount, the wallet pays it and the fee', async () => {
    const balance = async () => (await wallet.pChain.getL1Validator({ validationID: validationId })).balance;
    const increase = await wallet.pChain.prepareIncreaseL1ValidatorBalanceTxn({
      validationId,
      balanceInAvax: AVAX,
    });
    const [before, fee, was] = [await pBalance(me.pAddress), await pFee(increase.tx), await balance()];
    txs.increase = await issue(wallet, increase);
    burnt.set(txs.increase, AVAX + fee);
    assert.equal(before - (await pBalance(me.pAddress)), AVAX + fee);
    const tx = await committed(txs.increase);
    assert.deepEqual([tx.validationID, tx.balance], [validationId, Number(AVAX)]);
    const now = await balance();
    assert.ok(now > was + AVAX - FEW_SECONDS_OF_FEES && now <= was + AVAX, `${was} → ${now}`);
    const [fromData] = await listed({ l1ValidationId: validationId });
    assert.ok(BigInt(fromData!.remainingBalance) <= now, 'the data service reads the node live');
    assert.ok(BigInt(fromData!.remainingBalance) > now - FEW_SECONDS_OF_FEES);
  });

  it('is disabled by its deactivation owner’s wallet; the rest goes back to the remaining-balance owner', async () => {
    const was = (await wallet.pChain.getL1Validator({ validationID: validationId })).balance;
    const disable = await ownerWallet.pChain.prepareDisableL1ValidatorTxn({ validationId, disableAuth: [0] });
    const [before, fee] = [await pBalance(owner.pAddress), await pFee(disable.tx)];
    txs.disable = await issue(ownerWallet, disable);
    burnt.set(txs.disable, fee);
    const tx = await committed(txs.disable);
    assert.equal(tx.validationID, validationId);

    const { utxos } = await wallet.pChain.getUTXOs({ addresses: [owner.pAddress] });
    const manager = utils.getManagerForVM('PVM');
    const refunds = (utxos as string[])
      .map((hex) => manager.unpack(utils.hexToBuffer(hex), Utxo))
      .filter(
        (u) => u.utxoId.txID.toString() === txs.disable && u.utxoId.outputIdx.value() >= tx.outputs.length,
      )
      .map((u) => (u.output as any).amount() as bigint);
    assert.equal(refunds.length, 1, 'one refund output, after the tx’s own outputs');
    const refund = refunds[0]!;
    assert.ok(refund <= was && refund > was - FEW_SECONDS_OF_FEES, `${was} → ${refund}`);
    assert.equal((await pBalance(owner.pAddress)) - before, refund - fee);

    const details = await wallet.pChain.getL1Validator({ validationID: validationId });
    assert.deepEqual([details.balance ?? 0n, details.weight], [0n, 70n], 'inactive, still of the L1');
    assert.deepEqual(await listed({ l1ValidationId: validationId }), [], 'not listed while inactive');
    const [inactive] = await listed({ l1ValidationId: validationId, includeInactiveL1Validators: true });
    assert.deepEqual([inactive?.validationId, inactive?.remainingBalance], [validationId, 0]);

    // The same list under the network's own name, as a plain client asks for it.
    const res = await fetch(
      `${net.facts.urls.data}/v1/networks/local/l1Validators?subnetId=${subnetId}&includeInactiveL1Validators=true`,
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as { validators: { validationId: string }[] };
    assert.equal(body.validators.length, nodes.length + 1);
  });

  it('is disabled again: accepted as the P-chain accepts it, the fee paid and nothing refunded', async () => {
    const disable = await ownerWallet.pChain.prepareDisableL1ValidatorTxn({ validationId, disableAuth: [0] });
    const [before, fee] = [await pBalance(owner.pAddress), await pFee(disable.tx)];
    txs.redisable = await issue(ownerWallet, disable);
    burnt.set(txs.redisable, fee);
    await committed(txs.redisable);
    assert.equal(before - (await pBalance(owner.pAddress)), fee);
  });

  it('is re-activated by a top-up, and removed by a weight of 0 that refunds the rest', async () => {
    await issue(
      wallet,
      await wallet.pChain.prepareIncreaseL1ValidatorBalanceTxn({ validationId, balanceInAvax: AVAX }),
    );
    const active = (await wallet.pChain.getL1Validator({ validationID: validationId })).balance;
    assert.ok(active <= AVAX && active > AVAX - FEW_SECONDS_OF_FEES, `${active}`);
    assert.equal((await listed({ l1ValidationId: validationId })).length, 1, 'listed again');

    const before = await pBalance(owner.pAddress);
    const remove = await wallet.pChain.prepareSetL1ValidatorWeightTxn({
      message: await signedByL1(await emit(weightPayload(validationId, 1n, 0n))),
    });
    const fee = await pFee(remove.tx);
    txs.remove = await issue(wallet, remove);
    burnt.set(txs.remove, fee);
    const refund = (await pBalance(owner.pAddress)) - before;
    assert.ok(refund <= active && refund > active - FEW_SECONDS_OF_FEES, `${active} → ${refund}`);
    await assert.rejects(wallet.pChain.getL1Validator({ validationID: validationId }), /not found/);
    assert.equal(
      (await validatorsOf()).find((v) => v.validationID === validationId),
      undefined,
    );
    assert.deepEqual(await listed({ l1ValidationId: validationId, includeInactiveL1Validators: true }), []);
    await committed(txs.remove);
  });

  it('registers a validator with no balance: of the L1 but inactive from the start', async () => {
    const key = blsKey('sdk-wallet-l1/unfunded');
    const node = testNodeId(94);
    const payload = registerPayload(
      subnetId,
      node,
      key,
      (await pTime()) + 600n,
      utils.bech32ToBytes(me.pAddress),
      10n,
    );
    const register = await wallet.pChain.prepareRegisterL1ValidatorTxn({
      initialBalanceInAvax: 0n,
      blsSignature: utils.bufferToHex(key.pop),
      message: await signedByL1(await emit(payload)),
    });
    const [before, fee] = [await pBalance(me.pAddress), await pFee(register.tx)];
    await issue(wallet, register);
    assert.equal(before - (await pBalance(me.pAddress)), fee);
    const id = utils.base58check.encode(sha256(payload));
    const details = await wallet.pChain.getL1Validator({ validationID: id });
    assert.deepEqual([details.nodeID, details.weight, details.balance ?? 0n], [node, 10n, 0n]);
    assert.deepEqual(await listed({ l1ValidationId: id }), []);
    assert.equal((await listed({ l1ValidationId: id, includeInactiveL1Validators: true })).length, 1);
  });

  it('lists each tx in the data API with what it burned: its fee and the balance it deposited, not a refund', async () => {
    await waitIndexed(net.url, net.facts.urls.data!);
    const listedBurns: [string, bigint[]][] = [];
    for (const [name, txHash] of Object.entries(txs)) {
      const tx = (await chainkit.data.primaryNetwork.transactions.get(
        { blockchainId: 'p-chain', txHash },
        at(),
      )) as any;
      listedBurns.push([name, tx.amountBurned.map((a: { amount: string }) => BigInt(a.amount))]);
    }
    assert.deepEqual(
      listedBurns,
      Object.entries(txs).map(([name, txHash]) => [name, [burnt.get(txHash)]]),
    );
  });
});

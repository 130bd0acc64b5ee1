/**
 * The wallet flows of the public `@avalanche-sdk/client`, driven exactly as its docs show
 * (`createAvalancheWalletClient`, a private-key account, `prepare*Txn` → `sendXPTransaction` →
 * `waitForTxn`, `send`), each checked by its effect on chain: balances move by the amounts and
 * fees the txs carry, shared memory fills and empties, validators join and leave, rewards pay.
 *
 * The devnet runs as `--network fuji`: SDK 0.1.1 builds cross-chain txs only for networks 1 and 5
 * (`getChainIdFromAlias` throws `Invalid network ID: 12345`, and `send` words P addresses with
 * `avax` off Fuji), so a Fuji-identity devnet is how its export, import and `send` flows run at
 * all. The wallet uses the SDK's own `avalancheFuji` chain with the transport URL on the devnet.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { utils, Utxo, type Common } from '@avalabs/avalanchejs';
import { createAvalancheWalletClient } from '@avalanche-sdk/client';
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts';
import { avalancheFuji } from '@avalanche-sdk/client/chains';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';
import { blsKey, registerPayload, signedWarp, testNodeId, weightPayload } from './pchain-helpers.js';
import { pChainFee, pChainTime } from './sdk-wallet-helpers.js';

const AVAX = 1_000_000_000n;
const WEI_PER_NANO = 1_000_000_000n;
const SUBNET_EVM_VM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const MANAGER = '0x' + 'cd'.repeat(20);

describe('@avalanche-sdk/client wallet flows', () => {
  let net: Devnet;
  // The SDK adds its X/P/C sub-clients only for Avalanche chain ids, which its types do not track.
  let wallet: any;
  let me: { pAddress: string; xAddress: string; cAddress: string; evmAddress: `0x${string}` };
  let other: { pAddress: string; xAddress: string; evmAddress: `0x${string}` };

  /** The SDK's whole issue path: sign, issue, then poll the status until accepted. */
  const issue = async (prepared: { chainAlias: 'X' | 'P' | 'C' }): Promise<string> => {
    const sent = await wallet.sendXPTransaction(prepared);
    await wallet.waitForTxn(sent);
    return sent.txHash;
  };
  const pBalance = async (address: string): Promise<bigint> =>
    (await wallet.pChain.getBalance({ addresses: [address] })).balance;
  const xBalance = async (address: string): Promise<bigint> =>
    (await wallet.xChain.getBalance({ address, assetID: 'AVAX' })).balance;
  const cBalance = (address: `0x${string}`): Promise<bigint> => wallet.getBalance({ address });
  /** `chain status` of each tx `send` reports, from that chain's own status method. */
  const statuses = (txHashes: { txHash: string; chainAlias: 'P' | 'C' }[]): Promise<string[]> =>
    Promise.all(
      txHashes.map(async ({ txHash: txID, chainAlias }) => {
        const { status } = await (chainAlias === 'P'
          ? wallet.pChain.getTxStatus({ txID })
          : wallet.cChain.getAtomicTxStatus({ txID }));
        return `${chainAlias} ${status}`;
      }),
    );
  const pTime = (): Promise<bigint> => pChainTime(wallet);
  const pFee = (tx: Common.UnsignedTx): Promise<bigint> => pChainFee(wallet, tx);
  /** Amounts of the UTXOs `address` has waiting in shared memory from `sourceChain`. */
  const atomicAmounts = async (
    client: any,
    address: string,
    sourceChain: string,
    vm: 'AVM' | 'PVM' | 'EVM',
  ): Promise<bigint[]> => {
    const { utxos } = await client.getUTXOs({ addresses: [address], sourceChain });
    const manager = utils.getManagerForVM(vm);
    return (utxos as string[]).map((hex) =>
      (manager.unpack(utils.hexToBuffer(hex), Utxo).output as any).amount(),
    );
  };

  before(async () => {
    net = await startDevnet({ command: 'node', args: ['--network', 'fuji'] });
    const [first, , , fourth] = net.facts.keys;
    me = first as typeof me;
    other = fourth as typeof other;
    wallet = createAvalancheWalletClient({
      account: privateKeyToAvalancheAccount(first!.privateKey),
      chain: avalancheFuji,
      transport: { type: 'http', url: net.facts.urls.cChainRpc },
    });
  });
  after(async () => {
    await net?.stop();
  });

  it("reports Fuji's fee table in info.getTxFee, as a Fuji node does", async () => {
    const fees = await call(`${net.url}/ext/info`, 'info.getTxFee');
    assert.deepEqual(
      [fees.txFee, fees.createSubnetTxFee, fees.transformSubnetTxFee, fees.createBlockchainTxFee],
      ['1000000', '100000000', '1000000000', '100000000'],
    );
  });

  it('sends AVAX on the C-chain: the recipient gets the amount, the sender also pays the gas', async () => {
    const amount = 10n ** 18n;
    const [meBefore, otherBefore] = [await cBalance(me.evmAddress), await cBalance(other.evmAddress)];
    const { txHashes } = await wallet.send({ to: other.evmAddress, amount });
    assert.equal(txHashes.length, 1);
    const receipt = await wallet.getTransactionReceipt({ hash: txHashes[0].txHash });
    assert.equal(receipt.status, 'success');
    assert.equal((await cBalance(other.evmAddress)) - otherBefore, amount);
    const gas = (receipt.gasUsed as bigint) * (receipt.effectiveGasPrice as bigint);
    assert.equal(meBefore - (await cBalance(me.evmAddress)), amount + gas);
  });

  it('sends AVAX P to P with send', async () => {
    const before = await pBalance(other.pAddress);
    const { txHashes } = await wallet.send({
      to: other.pAddress,
      amount: 2n * 10n ** 18n,
      sourceChain: 'P',
      destinationChain: 'P',
    });
    assert.deepEqual(await statuses(txHashes), ['P Committed']);
    assert.equal((await pBalance(other.pAddress)) - before, 2n * AVAX);
  });

  /**
   * `send` across chains, `avax` whole AVAX from the wallet to `other`: the statuses of its two
   * txs, and what left the sender's and reached the recipient's balance, in nAVAX (a C-chain
   * balance moves by whole nAVAX in atomic txs).
   */
  const sendAcross = async (sourceChain: 'C' | 'P', avax: bigint) => {
    const balance = (chain: 'C' | 'P', who: typeof me | typeof other): Promise<bigint> =>
      chain === 'P' ? pBalance(who.pAddress) : cBalance(who.evmAddress);
    const inNano = (chain: 'C' | 'P', delta: bigint): bigint => {
      if (chain === 'P') return delta;
      assert.equal(delta % WEI_PER_NANO, 0n, 'atomic txs move whole nAVAX');
      return delta / WEI_PER_NANO;
    };
    const destinationChain = sourceChain === 'C' ? 'P' : 'C';
    const [spentBefore, receivedBefore] = [
      await balance(sourceChain, me),
      await balance(destinationChain, other),
    ];
    const to = destinationChain === 'P' ? other.pAddress : other.evmAddress;
    const { txHashes } = await wallet.send({ to, amount: avax * 10n ** 18n, sourceChain, destinationChain });
    return {
      statuses: await statuses(txHashes),
      spent: inNano(sourceChain, spentBefore - (await balance(sourceChain, me))),
      received: inNano(destinationChain, (await balance(destinationChain, other)) - receivedBefore),
    };
  };
  /** A fee was paid and it was small: `value` lies in (`exact`, `exact` + 0.01 AVAX). */
  const plusFee = (value: bigint, exact: bigint, what: string): void =>
    assert.ok(value > exact && value < exact + AVAX / 100n, `${what}: ${value} for ${exact}`);

  it('sends AVAX C to P with send: a C export, then a P import to the recipient', async () => {
    const { statuses: done, spent, received } = await sendAcross('C', 3n);
    assert.deepEqual(done, ['C Accepted', 'P Committed']);
    plusFee(spent, 3n * AVAX, 'the sender pays the export fee on top');
    plusFee(3n * AVAX, received, 'the recipient gets the amount less the import fee');
    assert.deepEqual(await atomicAmounts(wallet.pChain, me.pAddress, 'C', 'PVM'), [], 'nothing left over');
  });

  it('sends AVAX P to C with send: a P export, then a C import to the recipient', async () => {
    const { statuses: done, spent, received } = await sendAcross('P', 4n);
    assert.deepEqual(done, ['P Committed', 'C Accepted']);
    plusFee(spent, 4n * AVAX, 'the sender pays the export fee on top');
    plusFee(4n * AVAX, received, 'the recipient gets the amount less the import fee');
    assert.deepEqual(await atomicAmounts(wallet.cChain, me.cAddress, 'P', 'EVM'), []);
  });

  it('sends P- and X-chain base txs: exact amounts, the P fee by complexity, the X fee flat', async () => {
    const p = await wallet.pChain.prepareBaseTxn({
      outputs: [{ addresses: [other.pAddress], amount: AVAX }],
    });
    const [pMe, pOther, pFeeNow] = [
      await pBalance(me.pAddress),
      await pBalance(other.pAddress),
      await pFee(p.tx),
    ];
    await issue(p);
    assert.equal((await pBalance(other.pAddress)) - pOther, AVAX);
    assert.equal(pMe - (await pBalance(me.pAddress)), AVAX + pFeeNow);

    const x = await wallet.xChain.prepareBaseTxn({
      outputs: [{ addresses: [other.xAddress], amount: AVAX }],
      memo: 'from the sdk',
    });
    const [xMe, xOther] = [await xBalance(me.xAddress), await xBalance(other.xAddress)];
    const txID = await issue(x);
    assert.equal((await xBalance(other.xAddress)) - xOther, AVAX);
    const { txFee } = await wallet.xChain.getTxFee();
    assert.equal(xMe - (await xBalance(me.xAddress)), AVAX + BigInt(txFee));
    const { tx } = await wallet.xChain.getTx({ txID, encoding: 'json' });
    assert.equal(Buffer.from(tx.unsignedTx.memo.slice(2), 'hex').toString(), 'from the sdk');
  });

  it('exports X to P and imports it there, then P back to X', async () => {
    const xStart = await xBalance(me.xAddress);
    await issue(
      await wallet.xChain.prepareExportTxn({
        destinationChain: 'P',
        exportedOutputs: [{ addresses: [me.pAddress], amount: 5n * AVAX }],
      }),
    );
    const { txFee } = await wallet.xChain.getTxFee();
    assert.equal(xStart - (await xBalance(me.xAddress)), 5n * AVAX + BigInt(txFee));
    assert.deepEqual(await atomicAmounts(wallet.pChain, me.pAddress, 'X', 'PVM'), [5n * AVAX]);

    const pStart = await pBalance(me.pAddress);
    const imp = await wallet.pChain.prepareImportTxn({
      sourceChain: 'X',
      importedOutput: { addresses: [me.pAddress] },
    });
    const importFee = await pFee(imp.tx);
    await issue(imp);
    assert.equal((await pBalance(me.pAddress)) - pStart, 5n * AVAX - importFee);
    assert.deepEqual(await atomicAmounts(wallet.pChain, me.pAddress, 'X', 'PVM'), []);

    const exp = await wallet.pChain.prepareExportTxn({
      destinationChain: 'X',
      exportedOutputs: [{ addresses: [me.xAddress], amount: 2n * AVAX }],
    });
    const [pBefore, exportFee] = [await pBalance(me.pAddress), await pFee(exp.tx)];
    await issue(exp);
    assert.equal(pBefore - (await pBalance(me.pAddress)), 2n * AVAX + exportFee);
    assert.deepEqual(await atomicAmounts(wallet.xChain, me.xAddress, 'P', 'AVM'), [2n * AVAX]);
    const xBefore = await xBalance(me.xAddress);
    await issue(
      await wallet.xChain.prepareImportTxn({
        sourceChain: 'P',
        importedOutput: { addresses: [me.xAddress] },
      }),
    );
    assert.equal((await xBalance(me.xAddress)) - xBefore, 2n * AVAX - BigInt(txFee));
    assert.deepEqual(await atomicAmounts(wallet.xChain, me.xAddress, 'P', 'AVM'), []);
  });

  it('exports X to C and imports it into an EVM account, then C back to X', async () => {
    await issue(
      await wallet.xChain.prepareExportTxn({
        destinationChain: 'C',
        exportedOutputs: [{ addresses: [me.cAddress], amount: 5n * AVAX }],
      }),
    );
    assert.deepEqual(await atomicAmounts(wallet.cChain, me.cAddress, 'X', 'EVM'), [5n * AVAX]);
    const cBefore = await cBalance(other.evmAddress);
    const imp = await wallet.cChain.prepareImportTxn({ sourceChain: 'X', toAddress: other.evmAddress });
    const credited = imp.importTx.Outs.reduce((sum: bigint, o: any) => sum + o.amount.value(), 0n);
    assert.ok(credited < 5n * AVAX, 'the import pays its fee out of the imported amount');
    const txID = await issue(imp);
    assert.equal((await wallet.cChain.getAtomicTxStatus({ txID })).status, 'Accepted');
    assert.equal((await cBalance(other.evmAddress)) - cBefore, credited * WEI_PER_NANO);
    assert.deepEqual(await atomicAmounts(wallet.cChain, me.cAddress, 'X', 'EVM'), []);

    const cStart = await cBalance(me.evmAddress);
    const exp = await wallet.cChain.prepareExportTxn({
      destinationChain: 'X',
      fromAddress: me.evmAddress,
      exportedOutput: { addresses: [me.xAddress], amount: 2n * AVAX },
    });
    const debited = exp.exportTx.ins.reduce((sum: bigint, i: any) => sum + i.amount.value(), 0n);
    await issue(exp);
    assert.equal(cStart - (await cBalance(me.evmAddress)), debited * WEI_PER_NANO);
    assert.deepEqual(await atomicAmounts(wallet.xChain, me.xAddress, 'C', 'AVM'), [2n * AVAX]);
    const xBefore = await xBalance(me.xAddress);
    await issue(
      await wallet.xChain.prepareImportTxn({
        sourceChain: 'C',
        importedOutput: { addresses: [me.xAddress] },
      }),
    );
    const { txFee } = await wallet.xChain.getTxFee();
    assert.equal((await xBalance(me.xAddress)) - xBefore, 2n * AVAX - BigInt(txFee));
  });

  describe('subnets and L1s', () => {
    let subnetId: string;
    let chainId: string;
    const l1Key = blsKey('sdk-wallet/l1-0');
    const l1Node = testNodeId(90);
    const newKey = blsKey('sdk-wallet/l1-1');
    const newNode = testNodeId(91);
    let validationId: string;

    it('creates a subnet owned by the wallet and a Subnet-EVM chain on it that starts serving', async () => {
      subnetId = await issue(
        await wallet.pChain.prepareCreateSubnetTxn({ subnetOwners: { addresses: [me.pAddress] } }),
      );
      const subnet = await wallet.pChain.getSubnet({ subnetID: subnetId });
      assert.deepEqual(
        [subnet.isPermissioned, subnet.controlKeys, subnet.threshold],
        [true, [me.pAddress], '1'],
      );
      chainId = await issue(
        await wallet.pChain.prepareCreateChainTxn({
          subnetId,
          vmId: SUBNET_EVM_VM,
          chainName: 'sdk wallet',
          subnetAuth: [0],
          genesisData: {
            config: { chainId: 99_991, feeConfig: { gasLimit: 8_000_000, minBaseFee: 25_000_000_000 } },
            alloc: { [me.evmAddress.slice(2)]: { balance: '0x52B7D2DCC80CD2E4000000' } },
            gasLimit: '0x7A1200',
            difficulty: '0x0',
            timestamp: '0x0',
          },
        }),
      );
      const { blockchains } = await wallet.pChain.getBlockchains();
      assert.deepEqual(
        blockchains.find((b: { id: string }) => b.id === chainId),
        { id: chainId, name: 'sdk wallet', subnetID: subnetId, vmID: SUBNET_EVM_VM },
      );
      assert.deepEqual(await wallet.pChain.validates({ subnetID: subnetId }), { blockchainIDs: [chainId] });
      const evmChainId = await call(`${net.url}/ext/bc/${chainId}/rpc`, 'eth_chainId', []);
      assert.equal(evmChainId, '0x18697');
    });

    it('adds a subnet validator with the subnet-auth signature, and removes it', async () => {
      const nodeId = net.facts.nodeID;
      await issue(
        await wallet.pChain.prepareAddSubnetValidatorTxn({
          subnetId,
          nodeId,
          weight: 20n,
          end: (await pTime()) + 600n,
          subnetAuth: [0],
        }),
      );
      const { validators } = await wallet.pChain.getCurrentValidators({ subnetID: subnetId });
      assert.deepEqual(
        validators.map((v: { nodeID: string; weight: string }) => [v.nodeID, v.weight]),
        [[nodeId, '20']],
      );
      await issue(await wallet.pChain.prepareRemoveSubnetValidatorTxn({ subnetId, nodeId, subnetAuth: [0] }));
      assert.deepEqual((await wallet.pChain.getCurrentValidators({ subnetID: subnetId })).validators, []);
    });

    it('converts the subnet to an L1 with one validator', async () => {
      const before = await pBalance(me.pAddress);
      const convert = await wallet.pChain.prepareConvertSubnetToL1Txn({
        subnetId,
        blockchainId: chainId,
        managerContractAddress: MANAGER,
        subnetAuth: [0],
        validators: [
          {
            nodeId: l1Node,
            nodePoP: {
              publicKey: utils.bufferToHex(l1Key.publicKey),
              proofOfPossession: utils.bufferToHex(l1Key.pop),
            },
            weight: 100n,
            initialBalanceInAvax: AVAX,
            remainingBalanceOwner: { addresses: [me.pAddress], threshold: 1 },
            deactivationOwner: { addresses: [me.pAddress], threshold: 1 },
          },
        ],
      });
      const fee = await pFee(convert.tx);
      await issue(convert);
      assert.equal(before - (await pBalance(me.pAddress)), AVAX + fee, 'the validator balance and the fee');
      const subnet = await wallet.pChain.getSubnet({ subnetID: subnetId });
      assert.deepEqual(
        [subnet.isPermissioned, subnet.managerChainID, subnet.managerAddress],
        [false, chainId, MANAGER],
      );
      const { validators } = await wallet.pChain.getCurrentValidators({ subnetID: subnetId });
      assert.deepEqual(
        validators.map((v: { nodeID: string; weight: string }) => [v.nodeID, v.weight]),
        [[l1Node, '100']],
      );
    });

    it('registers an L1 validator from a Warp message, and sets its weight', async () => {
      const owner = utils.bech32ToBytes(me.pAddress);
      const payload = registerPayload(subnetId, newNode, newKey, (await pTime()) + 600n, owner, 50n);
      const signed = (p: Uint8Array, signers: (typeof l1Key)[], bits: number) =>
        utils.bufferToHex(
          signedWarp(5, chainId, utils.hexToBuffer(MANAGER), p, signers, new Uint8Array([bits])),
        );
      await issue(
        await wallet.pChain.prepareRegisterL1ValidatorTxn({
          initialBalanceInAvax: 2n * AVAX,
          blsSignature: utils.bufferToHex(newKey.pop),
          message: signed(payload, [l1Key], 1),
        }),
      );
      const { validators } = await wallet.pChain.getCurrentValidators({ subnetID: subnetId });
      const registered = validators.find((v: { nodeID: string }) => v.nodeID === newNode);
      assert.equal(registered?.weight, '50');
      validationId = registered.validationID;
      const details = await wallet.pChain.getL1Validator({ validationID: validationId });
      assert.equal(details.subnetID, subnetId);
      assert.ok(details.balance > 0n && details.balance <= 2n * AVAX);

      // 67% of the L1's weight (150) must sign: both validators.
      await issue(
        await wallet.pChain.prepareSetL1ValidatorWeightTxn({
          message: signed(weightPayload(validationId, 0n, 70n), [l1Key, newKey], 3),
        }),
      );
      const updated = await wallet.pChain.getL1Validator({ validationID: validationId });
      assert.deepEqual([updated.weight, updated.minNonce], [70n, 1n]);
      const all = await wallet.pChain.getAllValidatorsAt({ height: 'proposed' });
      assert.equal(all.validatorSets[subnetId].totalWeight, '170');
    });

    it('tops up the L1 validator balance, then disables it with the deactivation owner', async () => {
      const before = (await wallet.pChain.getL1Validator({ validationID: validationId })).balance;
      await issue(
        await wallet.pChain.prepareIncreaseL1ValidatorBalanceTxn({ validationId, balanceInAvax: AVAX }),
      );
      const topped = (await wallet.pChain.getL1Validator({ validationID: validationId })).balance;
      // The continuous fee runs meanwhile (fuji's 512 nAVAX/s minimum), so allow a few seconds' worth.
      assert.ok(topped > before + AVAX - 10_000n && topped <= before + AVAX, `${before} → ${topped}`);

      const pBefore = await pBalance(me.pAddress);
      const disable = await wallet.pChain.prepareDisableL1ValidatorTxn({ validationId, disableAuth: [0] });
      const fee = await pFee(disable.tx);
      await issue(disable);
      const disabled = await wallet.pChain.getL1Validator({ validationID: validationId });
      assert.equal(disabled.balance ?? 0n, 0n, 'no balance is left on the validator');
      const refunded = (await pBalance(me.pAddress)) - pBefore + fee;
      assert.ok(refunded > topped - 10_000n && refunded <= topped, `the rest came back (${refunded})`);
    });
  });

  describe('primary-network staking', () => {
    const key = blsKey('sdk-wallet/validator');
    const nodeId = testNodeId(92);
    let validatorTx: string;
    let delegatorTx: string;

    it('adds a permissionless validator with its BLS key, and a delegator to it', async () => {
      const { minValidatorStake, minDelegatorStake } = await wallet.pChain.getMinStake({});
      const before = await pBalance(me.pAddress);
      const { staked: stakedBefore } = await wallet.pChain.getStake({ addresses: [me.pAddress] });
      const end = (await pTime()) + 3600n;
      const validator = await wallet.pChain.prepareAddPermissionlessValidatorTxn({
        stakeInAvax: minValidatorStake,
        nodeId,
        end,
        publicKey: utils.bufferToHex(key.publicKey),
        signature: utils.bufferToHex(key.pop),
        rewardAddresses: [me.pAddress],
        delegatorRewardAddresses: [me.pAddress],
        delegatorRewardPercentage: 2,
      });
      const validatorFee = await pFee(validator.tx);
      validatorTx = await issue(validator);
      const delegator = await wallet.pChain.prepareAddPermissionlessDelegatorTxn({
        stakeInAvax: minDelegatorStake,
        nodeId,
        end: end - 60n,
        rewardAddresses: [other.pAddress],
      });
      const delegatorFee = await pFee(delegator.tx);
      delegatorTx = await issue(delegator);

      const stake = minValidatorStake + minDelegatorStake;
      assert.equal(before - (await pBalance(me.pAddress)), stake + validatorFee + delegatorFee);
      const { staked } = await wallet.pChain.getStake({ addresses: [me.pAddress] });
      assert.equal(BigInt(staked) - BigInt(stakedBefore), stake);
      const { validators } = await wallet.pChain.getCurrentValidators({ nodeIDs: [nodeId] });
      assert.equal(validators.length, 1);
      const [v] = validators;
      assert.deepEqual(
        [v.txID, v.weight, v.endTime, v.delegationFee, v.signer.publicKey],
        [validatorTx, String(minValidatorStake), String(end), '2.0000', utils.bufferToHex(key.publicKey)],
      );
      assert.deepEqual(
        v.delegators.map((d: { txID: string; weight: string }) => [d.txID, d.weight]),
        [[delegatorTx, String(minDelegatorStake)]],
      );
    });

    it('returns stake and pays rewards once advanceTime passes the staking end', async () => {
      const { validators } = await wallet.pChain.getCurrentValidators({ nodeIDs: [nodeId] });
      const potential = BigInt(validators[0].potentialReward);
      assert.ok(potential > 0n);
      const [meBefore, otherBefore] = [await pBalance(me.pAddress), await pBalance(other.pAddress)];
      const { body } = await rpc(`${net.url}/ext/bc/P`, 'platform.advanceTime', { seconds: 3700 });
      assert.ok(body.result, JSON.stringify(body.error));
      assert.deepEqual((await wallet.pChain.getCurrentValidators({ nodeIDs: [nodeId] })).validators, []);
      const rewardsOf = async (txID: string): Promise<bigint[]> => {
        const { utxos } = await wallet.pChain.getRewardUTXOs({ txID, encoding: 'hex' });
        const manager = utils.getManagerForVM('PVM');
        return utxos.map((hex: string) =>
          (manager.unpack(utils.hexToBuffer(hex), Utxo).output as any).amount(),
        );
      };
      const validatorRewards = await rewardsOf(validatorTx);
      assert.equal(validatorRewards[0], potential);
      const delegatorRewards = await rewardsOf(delegatorTx);
      assert.equal(delegatorRewards.length, 1);
      const { minValidatorStake, minDelegatorStake } = await wallet.pChain.getMinStake({});
      const rewards = validatorRewards.reduce((a, b) => a + b, 0n);
      assert.equal((await pBalance(me.pAddress)) - meBefore, minValidatorStake + minDelegatorStake + rewards);
      assert.equal((await pBalance(other.pAddress)) - otherBefore, delegatorRewards[0]);
    });
  });

  it('leaves the account key to the wallet: avalanche_getAccountPubKey is not a node method', async () => {
    // The SDK asks its transport (here the C-chain RPC) for the key; only browser wallets answer.
    await assert.rejects(wallet.getAccountPubKey(), (err: any) => {
      assert.equal(err.code, -32601);
      assert.match(err.details, /the method avalanche_getAccountPubKey does not exist\/is not available/);
      return true;
    });
  });
});

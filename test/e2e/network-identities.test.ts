/**
 * A devnet started as `--network local|fuji|mainnet` answers, through the node's public clients,
 * with that network's identity and its network-specific parameters as the reference node's
 * genesis params give them (avalanchego `genesis/genesis_{local,fuji,mainnet}.go`): code written
 * for Fuji or mainnet (a Fuji tutorial staking 1 AVAX, a fee estimator reading the validator fee
 * config) runs unchanged against it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context, pvm, utils } from '@avalabs/avalanchejs';
import { createPublicClient, defineChain, http } from 'viem';
import { avalanche, avalancheFuji } from 'viem/chains';
import { call, startDevnet, type Devnet } from '../helpers/devnet.js';
import { EWOQ_ADDR, executionRefusal, signAndIssue } from './pchain-helpers.js';

const AVAX = 1_000_000_000n;
// viem names no local Avalanche chain: the local C-chain's id on Fuji's definition.
const avalancheLocal = defineChain({ ...avalancheFuji, id: 43112, name: 'Avalanche Local' });

const EXPECTED = {
  local: {
    networkID: 12345,
    hrp: 'local',
    chain: avalancheLocal,
    xChainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    cChainID: '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC',
    avaxAssetID: '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe',
    createAssetTxFee: 1_000_000n,
    minStake: { minValidatorStake: String(2_000n * AVAX), minDelegatorStake: String(25n * AVAX) },
    validatorFee: { capacity: 20_000, target: 10_000, minPrice: 1, excessConversionConstant: 865_617 },
  },
  fuji: {
    networkID: 5,
    hrp: 'fuji',
    chain: avalancheFuji,
    xChainID: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainID: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    avaxAssetID: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    createAssetTxFee: 10_000_000n,
    minStake: { minValidatorStake: String(AVAX), minDelegatorStake: String(AVAX) },
    validatorFee: { capacity: 20_000, target: 10_000, minPrice: 512, excessConversionConstant: 51_937_021 },
  },
  mainnet: {
    networkID: 1,
    hrp: 'avax',
    chain: avalanche,
    xChainID: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainID: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    avaxAssetID: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    createAssetTxFee: 10_000_000n,
    minStake: { minValidatorStake: String(2_000n * AVAX), minDelegatorStake: String(25n * AVAX) },
    validatorFee: {
      capacity: 20_000,
      target: 10_000,
      minPrice: 512,
      excessConversionConstant: 1_246_488_515,
    },
  },
} as const;

for (const [name, want] of Object.entries(EXPECTED)) {
  describe(`a node started as --network ${name}`, () => {
    let net: Devnet;
    before(async () => {
      net = await startDevnet({ command: 'node', args: ['--network', name] });
    });
    after(async () => {
      await net?.stop();
    });

    it("gives avalanchejs's Context and viem the network's ids", async () => {
      const ctx = await Context.getContextFromURI(net.url);
      assert.deepEqual(
        [ctx.networkID, ctx.hrp, ctx.xBlockchainID, ctx.cBlockchainID, ctx.avaxAssetID],
        [want.networkID, want.hrp, want.xChainID, want.cChainID, want.avaxAssetID],
      );
      assert.deepEqual([ctx.baseTxFee, ctx.createAssetTxFee], [1_000_000n, want.createAssetTxFee]);
      const client = createPublicClient({ chain: want.chain, transport: http(net.facts.urls.cChainRpc) });
      assert.equal(await client.getChainId(), want.chain.id);
      assert.equal(await client.request({ method: 'net_version' } as never), String(want.chain.id));
      assert.equal((await call(`${net.url}/ext/info`, 'info.getNetworkName')).networkName, name);
    });

    it("reports the network's staking minimums and validator fee config, and enforces the minimums", async () => {
      assert.deepEqual(await call(`${net.url}/ext/bc/P`, 'platform.getMinStake', {}), want.minStake);
      assert.deepEqual(
        await call(`${net.url}/ext/bc/P`, 'platform.getValidatorFeeConfig', {}),
        want.validatorFee,
      );
      // A delegation of exactly the minimum is taken, one nAVAX less is refused.
      const ctx = await Context.getContextFromURI(net.url);
      const api = new pvm.PVMApi(net.url);
      const now = BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
      const nodeId = ((await api.getCurrentValidators()).validators[0] as { nodeID: string }).nodeID;
      const delegation = async (weight: bigint) =>
        pvm.newAddPermissionlessDelegatorTx(
          {
            feeState: await api.getFeeState(),
            fromAddressesBytes: [EWOQ_ADDR],
            utxos: (await api.getUTXOs({ addresses: [utils.format('P', want.hrp, EWOQ_ADDR)] })).utxos,
            nodeId,
            subnetId: ctx.pBlockchainID,
            start: now,
            end: now + 3600n,
            weight,
            rewardAddresses: [EWOQ_ADDR],
          },
          ctx,
        );
      const min = BigInt(want.minStake.minDelegatorStake);
      const short = await delegation(min - 1n);
      // The reference refuses a delegator under the minimum with its validator words (ErrWeightTooSmall).
      await assert.rejects(signAndIssue(api, short), (err: Error) => {
        // Read once signed: the refusal names the signed tx's id.
        assert.equal(err.message, executionRefusal(short, 'weight of this validator is too low'));
        return true;
      });
      const txID = await signAndIssue(api, await delegation(min));
      assert.equal((await call(`${net.url}/ext/bc/P`, 'platform.getTxStatus', { txID })).status, 'Committed');
    });
  });
}

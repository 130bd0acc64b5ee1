/**
 * `delegationCapacity` of the data API's active validations, through plain fetch: what can still
 * be delegated under the P-chain's own rule (a validator's weight may reach five times its stake,
 * never 3,000,000 AVAX), and nothing for a permissioned subnet validation, which takes no
 * delegations (as it has no delegation fee, the capacity filters leave it out).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context, pvm } from '@avalabs/avalanchejs';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import { waitIndexed } from './data-helpers.js';
import {
  blsKey,
  builderBase,
  EWOQ_ADDR,
  EWOQ_KEY,
  primaryValidatorTx,
  signAndIssue,
  testNodeId,
} from './pchain-helpers.js';

const AVAX = 1_000_000_000n;

describe('data API delegation capacity', () => {
  let net: Devnet;
  let api: pvm.PVMApi;
  let subnetId: string;
  let primaryTx: string;
  let subnetTx: string;
  const node = testNodeId(211);
  const list = async (query: string) => {
    const res = await fetch(`${net.facts.urls.data}/v1/networks/fuji/validators?${query}`);
    assert.equal(res.status, 200, query);
    return ((await res.json()) as any).validators as any[];
  };

  before(async () => {
    net = await startDevnet();
    api = new pvm.PVMApi(net.url);
    const ctx = await Context.getContextFromURI(net.url);
    const base = () => builderBase(api);
    const now = BigInt(Date.parse((await api.getTimestamp()).timestamp) / 1000);
    // A million AVAX: five times that passes the 3M AVAX cap, which then bounds the capacity.
    primaryTx = await signAndIssue(
      api,
      primaryValidatorTx(ctx, await base(), {
        nodeId: node,
        start: now,
        end: now + 7200n,
        weight: 1_000_000n * AVAX,
        key: blsKey('capacity'),
      }),
    );
    subnetId = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
    subnetTx = await signAndIssue(
      api,
      pvm.newAddSubnetValidatorTx(
        {
          ...(await base()),
          nodeId: node,
          subnetId,
          subnetAuth: [0],
          start: now,
          end: now + 3600n,
          weight: 7n,
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    await waitIndexed(net.url, net.facts.urls.data!);
  });
  after(async () => {
    await net?.stop();
  });

  it('caps a primary validator at the maximum validator stake', async () => {
    const [v] = (await list(`nodeIds=${node}&validationStatus=active`)).filter((x) => x.txHash === primaryTx);
    assert.ok(v, 'the primary validation is listed');
    assert.equal(v.delegationCapacity, String(2_000_000n * AVAX));
  });

  it('gives a permissioned subnet validation no delegation capacity', async () => {
    const [v, ...rest] = await list(`subnetId=${subnetId}`);
    assert.deepEqual(rest, []);
    assert.equal(v.txHash, subnetTx);
    assert.equal(v.validationStatus, 'active');
    assert.equal('delegationCapacity' in v, false);
    assert.equal('delegationFee' in v, false);
    assert.deepEqual(await list(`subnetId=${subnetId}&minDelegationCapacity=0`), []);
  });
});

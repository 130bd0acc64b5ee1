import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeeMarket1559Tx, LegacyTx } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { privateKeyToAccount } from 'viem/accounts';
import { createEvmCommon } from './common.js';
import { decodeRawTx } from './txpool/admission.js';

const CHAIN_ID = 43112;
const account = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const to = '0x0100000000000000000000000000000000000000';

async function signed() {
  return {
    eip1559: await account.signTransaction({
      chainId: CHAIN_ID,
      type: 'eip1559',
      nonce: 3,
      to,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 30_000_000_000n,
      maxPriorityFeePerGas: 1n,
    }),
    legacy: await account.signTransaction({
      chainId: CHAIN_ID,
      type: 'legacy',
      nonce: 4,
      to,
      value: 1n,
      gas: 21_000n,
      gasPrice: 30_000_000_000n,
    }),
  };
}

describe('a submitted transaction’s sender', () => {
  it('is the signer, derived from the signature once however often it is asked', async () => {
    const common = createEvmCommon(CHAIN_ID);
    for (const [kind, raw] of Object.entries(await signed())) {
      const tx = decodeRawTx(hexToBytes(raw), common, CHAIN_ID);
      const proto = kind === 'legacy' ? LegacyTx.prototype : FeeMarket1559Tx.prototype;
      const recover = proto.getSenderPublicKey;
      let recovered = 0;
      proto.getSenderPublicKey = function (this: typeof tx) {
        recovered++;
        return recover.call(this);
      };
      try {
        for (let i = 0; i < 3; i++)
          assert.equal(tx.getSenderAddress().toString(), account.address.toLowerCase(), kind);
      } finally {
        proto.getSenderPublicKey = recover;
      }
      assert.equal(recovered, 1, `${kind}: the public key is asked for once`);
    }
  });

  it('leaves the transaction as the engine makes it: frozen, its keys its fields, a new Address each time', async () => {
    const common = createEvmCommon(CHAIN_ID);
    const tx = decodeRawTx(hexToBytes((await signed()).eip1559), common, CHAIN_ID);
    assert.ok(Object.isFrozen(tx));
    assert.ok(!Object.keys(tx).includes('getSenderAddress'));
    const first = tx.getSenderAddress();
    first.bytes.fill(0);
    assert.equal(tx.getSenderAddress().toString(), account.address.toLowerCase());
  });
});

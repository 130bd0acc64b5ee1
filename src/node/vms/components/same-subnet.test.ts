import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameSubnetFailure } from './same-subnet.js';

const P = '11111111111111111111111111111111LpoYY';
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const L1 = '46WPtSJH9Mc1rNbRaWo6k2v6Bm8dc1FuCFxS2n6gFo7L5vAy5';
const SUBNET = '2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r';

describe('verify.SameSubnet for atomic peers', () => {
  const none = () => undefined;
  it('accepts the other primary-network chains', () => {
    assert.equal(sameSubnetFailure(X, P, [P, X, C], none), undefined);
    assert.equal(sameSubnetFailure(X, C, [P, X, C], none), undefined);
  });
  it('words each refusal as the reference does', () => {
    assert.equal(sameSubnetFailure(X, X, [P, X, C], none), 'same chainID');
    assert.equal(
      sameSubnetFailure(C, L1, [P, X, C], () => ({ subnet: SUBNET })),
      `mismatched subnetIDs; expected "${P}" got "${SUBNET}"`,
    );
    assert.equal(
      sameSubnetFailure(P, L1, [P, X, C], () => ({ notABlockchain: true })),
      `failed to get subnet of "${L1}": "${L1}" is not a blockchain`,
    );
    assert.equal(
      sameSubnetFailure(P, L1, [P, X, C], none),
      `failed to get subnet of "${L1}": problem retrieving blockchain "${L1}": not found`,
    );
  });
});

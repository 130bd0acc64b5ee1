import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { utils } from '@avalabs/avalanchejs';
import {
  TEST_CERT_DER,
  TEST_CERT_NODE_ID,
  TEST_CERT_NODE_ID_HEX,
  wrapOption,
  wrapSigned,
} from '../../../../test/helpers/proposervm.js';
import { parseNodeId } from '../../../shared/encoding.js';
import { UpstreamInvalidError } from '../../internal/errors.js';
import { nodeIdOfCertificate, readContainerBlock } from './proposervm.js';

const cb58 = (b: Uint8Array) => utils.base58check.encode(b);
const sha = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const id = (fill: number) => new Uint8Array(32).fill(fill);
const be = (bytes: number, v: bigint) => {
  const b = Buffer.alloc(bytes);
  if (bytes === 2) b.writeUInt16BE(Number(v));
  else if (bytes === 4) b.writeUInt32BE(Number(v));
  else b.writeBigUInt64BE(v);
  return b;
};
const cat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** X-chain StandardBlock (type 20) without txs. */
const xBlock = (height: bigint, time: bigint) =>
  cat(be(2, 0n), be(4, 20n), id(7), be(8, height), be(8, time), id(0), be(4, 0n));
/** P-chain BanffStandardBlock (type 32) without txs. */
const banffStandard = (height: bigint, time: bigint) =>
  cat(be(2, 0n), be(4, 32n), be(8, time), id(9), be(8, height), be(4, 0n));
/** P-chain BanffCommitBlock (type 31). */
const banffCommit = (height: bigint, time: bigint) =>
  cat(be(2, 0n), be(4, 31n), be(8, time), id(10), be(8, height));
/** P-chain Apricot abort (1) or commit (2): type ids a proposervm wrapper also uses. */
const apricot = (type: 1n | 2n, height: bigint) => cat(be(2, 0n), be(4, type), id(11), be(8, height));

describe('proposervm containers', () => {
  it('reads the certificate of the test fixture as the node id openssl computed', () => {
    assert.equal(nodeIdOfCertificate(TEST_CERT_DER), TEST_CERT_NODE_ID);
    assert.equal(Buffer.from(parseNodeId(TEST_CERT_NODE_ID)).toString('hex'), TEST_CERT_NODE_ID_HEX);
  });

  it('unwraps a signed block: inner id and size, proposer id without the signature, signer', () => {
    const inner = xBlock(5n, 1_700_000_100n);
    const w = wrapSigned({
      parentId: id(1),
      timestamp: 1_700_000_101n,
      pChainHeight: 42n,
      certificate: TEST_CERT_DER,
      inner,
      signature: new Uint8Array(71).fill(0xab),
    });
    const c = readContainerBlock('X', w.bytes);
    assert.equal(c.blockId, cb58(sha(inner)));
    assert.deepEqual(c.bytes, inner);
    assert.equal(c.block.height, 5n);
    assert.equal(c.block.typeName, 'StandardBlock');
    assert.deepEqual(c.proposer, {
      id: cb58(w.id),
      parentId: cb58(id(1)),
      nodeId: TEST_CERT_NODE_ID,
      pChainHeight: 42,
      timestamp: 1_700_000_101,
    });
    // The id leaves out the signature and its length prefix: another signature, same id.
    const resigned = wrapSigned({
      parentId: id(1),
      timestamp: 1_700_000_101n,
      pChainHeight: 42n,
      certificate: TEST_CERT_DER,
      inner,
      signature: new Uint8Array(3).fill(1),
    });
    assert.equal(readContainerBlock('X', resigned.bytes).proposer?.id, cb58(w.id));
    assert.equal(cb58(w.id), cb58(sha(w.bytes.subarray(0, w.bytes.length - 4 - 71))));
  });

  it('unwraps an unsigned block (empty certificate): no node id', () => {
    const inner = banffStandard(3n, 1_700_000_000n);
    const w = wrapSigned({ parentId: id(2), timestamp: 1_700_000_000n, pChainHeight: 2n, inner });
    const c = readContainerBlock('P', w.bytes);
    assert.equal(c.blockId, cb58(sha(inner)));
    assert.equal(c.block.typeName, 'BanffStandardBlock');
    assert.deepEqual(c.proposer, {
      id: cb58(sha(w.bytes.subarray(0, w.bytes.length - 4))),
      parentId: cb58(id(2)),
      pChainHeight: 2,
      timestamp: 1_700_000_000,
    });
  });

  it('unwraps a Granite block (type 2, with an epoch before the signature)', () => {
    const inner = xBlock(9n, 1_800_000_000n);
    const w = wrapSigned({
      parentId: id(3),
      timestamp: 1_800_000_001n,
      pChainHeight: 77n,
      certificate: TEST_CERT_DER,
      inner,
      signature: new Uint8Array([1, 2, 3]),
      epoch: { pChainHeight: 70n, number: 4n, startTime: 1_799_999_000n },
    });
    assert.equal(w.bytes[5], 2);
    const c = readContainerBlock('X', w.bytes);
    assert.equal(c.blockId, cb58(sha(inner)));
    assert.deepEqual(c.proposer, {
      id: cb58(w.id),
      parentId: cb58(id(3)),
      nodeId: TEST_CERT_NODE_ID,
      pChainHeight: 77,
      timestamp: 1_800_000_001,
    });
  });

  it('unwraps an option block: id of all its bytes, no signer, height or time', () => {
    const inner = banffCommit(8n, 1_700_000_500n);
    const w = wrapOption(id(4), inner);
    const c = readContainerBlock('P', w.bytes);
    assert.equal(c.blockId, cb58(sha(inner)));
    assert.equal(c.block.typeName, 'BanffCommitBlock');
    assert.deepEqual(c.proposer, { id: cb58(sha(w.bytes)), parentId: cb58(id(4)) });
  });

  it('reads blocks that are not wrapped as they are, also P-chain types a wrapper shares', () => {
    for (const [chain, bytes, typeName] of [
      ['X', xBlock(1n, 1_700_000_000n), 'StandardBlock'],
      ['P', banffStandard(4n, 1_700_000_000n), 'BanffStandardBlock'],
      ['P', apricot(1n, 6n), 'ApricotAbortBlock'],
      ['P', apricot(2n, 0n), 'ApricotCommitBlock'],
      ['P', apricot(2n, 12n), 'ApricotCommitBlock'],
    ] as const) {
      const c = readContainerBlock(chain, bytes);
      assert.equal(c.proposer, undefined, typeName);
      assert.equal(c.blockId, cb58(sha(bytes)));
      assert.deepEqual(c.bytes, bytes);
      assert.equal(c.block.typeName, typeName);
    }
  });

  it('refuses truncated, overlong or inconsistent wrappers with UpstreamInvalidError', () => {
    const inner = xBlock(5n, 1_700_000_100n);
    const signed = wrapSigned({
      parentId: id(1),
      timestamp: 1n,
      pChainHeight: 1n,
      certificate: TEST_CERT_DER,
      inner,
      signature: new Uint8Array([9]),
    }).bytes;
    const option = wrapOption(id(1), banffCommit(2n, 3n)).bytes;
    const cases: [string, 'X' | 'P', Uint8Array, RegExp][] = [
      ['truncated signed X', 'X', signed.subarray(0, signed.length - 1), /proposervm block: unexpected end/],
      ['trailing byte after the signature', 'X', cat(signed, new Uint8Array([0])), /after the signature/],
      [
        'truncated inner X block',
        'X',
        wrapSigned({ parentId: id(1), timestamp: 1n, pChainHeight: 1n, inner: inner.subarray(0, 40) }).bytes,
        /inner block: block bytes end early/,
      ],
      [
        'trailing byte after an option',
        'P',
        cat(option, new Uint8Array([0])),
        /neither a proposervm block \(.*after the option block\) nor a P-chain block/,
      ],
      [
        'truncated option',
        'P',
        option.subarray(0, option.length - 2),
        /neither a proposervm block .* nor a P-chain block/,
      ],
      [
        'a signature without a certificate',
        'X',
        wrapSigned({
          parentId: id(1),
          timestamp: 1n,
          pChainHeight: 1n,
          inner,
          signature: new Uint8Array([1]),
        }).bytes,
        /signature without a certificate/,
      ],
      [
        'a certificate that is not X.509',
        'X',
        wrapSigned({
          parentId: id(1),
          timestamp: 1n,
          pChainHeight: 1n,
          certificate: new Uint8Array(40).fill(0x30),
          inner,
          signature: new Uint8Array([1]),
        }).bytes,
        /not X\.509/,
      ],
      [
        'an X block wrapped as a P block',
        'P',
        wrapSigned({ parentId: id(1), timestamp: 1n, pChainHeight: 1n, inner }).bytes,
        /unknown P-chain block type 20/,
      ],
      [
        'an X container with an unknown type',
        'X',
        cat(be(2, 0n), be(4, 7n), id(1)),
        /unknown X-chain block type 7/,
      ],
    ];
    for (const [what, chain, bytes, message] of cases)
      assert.throws(
        () => readContainerBlock(chain, bytes),
        (err: any) => err instanceof UpstreamInvalidError && message.test(err.message),
        what,
      );
  });
});

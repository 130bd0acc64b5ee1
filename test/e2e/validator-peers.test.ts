/**
 * Issue 8 (node side): every genesis validator answers signature requests at its own address,
 * announced in info.peers, and a devnet control makes one offline, slow, refusing or lying.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, rpc, startDevnet, type Devnet } from '../helpers/devnet.js';

function unsignedMessage(networkID: number, sourceChain: Uint8Array, payload: Uint8Array): string {
  const out = Buffer.alloc(42 + payload.length);
  out.writeUInt16BE(0, 0);
  out.writeUInt32BE(networkID, 2);
  Buffer.from(sourceChain).copy(out, 6);
  out.writeUInt32BE(payload.length, 38);
  Buffer.from(payload).copy(out, 42);
  return '0x' + out.toString('hex');
}

describe('validators as peers', () => {
  let net: Devnet;
  before(async () => {
    net = await startDevnet();
  });
  after(async () => {
    await net?.stop();
  });

  it('announces each validator at its own address, answering as that validator', async () => {
    const { peers } = await call(`${net.url}/ext/info`, 'info.peers');
    assert.equal(peers.length, 4);
    const addresses = new Set(peers.map((p: any) => p.ip));
    assert.equal(addresses.size, 4);
    for (const peer of peers) {
      const me = await call(`http://${peer.ip}/ext/info`, 'info.getNodeID');
      assert.equal(me.nodeID, peer.nodeID);
      assert.match(me.nodePOP.publicKey, /^0x[0-9a-f]{96}$/);
    }
  });

  it('refuses messages from other networks and from chains it does not validate', async () => {
    const { peers } = await call(`${net.url}/ext/info`, 'info.peers');
    const url = `http://${peers[0].ip}/ext/acp118`;
    const otherNetwork = await rpc(url, 'acp118.signatureRequest', {
      message: unsignedMessage(1, new Uint8Array(32).fill(9), new Uint8Array([1])),
      justification: '',
    });
    assert.match(otherNetwork.body.error.message, /wrong network ID/);
    const unknownChain = await rpc(url, 'acp118.signatureRequest', {
      message: unsignedMessage(12345, new Uint8Array(32).fill(9), new Uint8Array([1])),
      justification: '',
    });
    assert.match(unknownChain.body.error.message, /not a chain this node validates/);
    const garbage = await rpc(url, 'acp118.signatureRequest', { message: '0x0102', justification: '' });
    assert.match(garbage.body.error.message, /cannot parse warp message/);
    const notHex = await rpc(url, 'acp118.signatureRequest', { message: 'zz', justification: '' });
    assert.match(notHex.body.error.message, /not valid hex/);
  });

  it('takes a validator offline and back, and refuses unknown faults', async () => {
    const { peers } = await call(`${net.url}/ext/info`, 'info.peers');
    const target = peers[1];
    await call(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', {
      nodeID: target.nodeID,
      fault: 'offline',
    });
    await assert.rejects(
      fetch(`http://${target.ip}/ext/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      // Its port is closed: the connection is refused (or, when undici reuses a kept-alive socket the
      // closing server just shut, cut) — not an HTTP answer, a timeout or a bad address.
      (err: any) => ['ECONNREFUSED', 'UND_ERR_SOCKET'].includes(err.cause?.code),
    );
    const faults = await call(`${net.url}/ext/devnet`, 'devnet.getValidatorFaults');
    assert.equal(faults.faults[target.nodeID].fault, 'offline');
    await call(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', { nodeID: target.nodeID, fault: 'none' });
    const back = await call(`http://${target.ip}/ext/info`, 'info.getNodeID');
    assert.equal(back.nodeID, target.nodeID);
    const bad = await rpc(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', {
      nodeID: target.nodeID,
      fault: 'asleep',
    });
    assert.match(bad.body.error.message, /fault must be one of/);
    const unknown = await rpc(`${net.url}/ext/devnet`, 'devnet.setValidatorFault', {
      nodeID: 'NodeID-111111111111111111116DBWJs',
      fault: 'offline',
    });
    assert.match(unknown.body.error.message, /not a genesis validator/);
  });
});

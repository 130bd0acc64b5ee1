/**
 * Bad input to the node's JSON-RPC, sent raw as any client could: every answer is a JSON-RPC error
 * object that says what was wrong (never a storage error, never a silent wrong answer).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { utils } from '@avalabs/avalanchejs';
import { createPublicClient, http, type Hex } from 'viem';
import { rpc, startDevnet, type Devnet } from '../helpers/devnet.js';

const UINT64_MAX = '18446744073709551615';
const EMPTY_ID = '11111111111111111111111111111111LpoYY';
const AVAX_ASSET_ID = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';

describe('node JSON-RPC refuses bad input clearly', () => {
  let net: Devnet;
  let x: string;
  let p: string;
  let c: string;
  before(async () => {
    net = await startDevnet({ command: 'node' });
    x = `${net.url}/ext/bc/X`;
    p = `${net.url}/ext/bc/P`;
    c = `${net.url}/ext/bc/C/rpc`;
  });
  after(async () => {
    await net?.stop();
  });

  /** The error of an Avalanche-flavoured call (HTTP 200, code -32000). */
  const avalancheError = async (url: string, method: string, params: unknown): Promise<string> => {
    const { status, body } = await rpc(url, method, params);
    assert.equal(status, 200);
    assert.ok(body.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(body.result)}`);
    assert.equal(body.error.code, -32000);
    return body.error.message as string;
  };

  it('answers heights and positions beyond int64 as not found, not as a storage error', async () => {
    assert.equal(
      await avalancheError(x, 'avm.getBlockByHeight', { height: UINT64_MAX }),
      `couldn't get block at height ${UINT64_MAX}: not found`,
    );
    assert.equal(
      await avalancheError(p, 'platform.getBlockByHeight', { height: UINT64_MAX }),
      `couldn't get block at height ${UINT64_MAX}: not found`,
    );
    for (const index of ['9223372036854775808', UINT64_MAX]) {
      assert.equal(
        await avalancheError(`${net.url}/ext/index/X/block`, 'index.getContainerByIndex', { index }),
        `no container at index ${index}`,
      );
    }
  });

  it('refuses -0 where a uint64 is due, as strconv.ParseUint does', async () => {
    // Sent as text: JSON.stringify writes -0 as 0.
    const res = await fetch(p, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"platform.getBlockByHeight","params":{"height":-0,"encoding":"hex"}}',
    });
    const body = (await res.json()) as any;
    assert.match(
      body.error.message,
      /couldn't unmarshal an argument.*\(height: strconv\.ParseUint: parsing "-0": invalid syntax\)/,
    );
    const zero = await rpc(p, 'platform.getBlockByHeight', { height: 0, encoding: 'hex' });
    assert.ok(zero.body.result.block);
  });

  it("decides Avalanche integer params by the literal sent, as utils/json's strconv.ParseUint does", async () => {
    /** The answer to a request written out as text (JSON.stringify would rewrite the literals). */
    const raw = async (url: string, text: string): Promise<any> => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      return res.json();
    };
    const call = (method: string, params: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;
    const unmarshal = (detail: string) =>
      `couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls (${detail})`;
    const parseUint = (name: string, text: string, reason = 'invalid syntax') =>
      unmarshal(`${name}: strconv.ParseUint: parsing "${text}": ${reason}`);
    const index = `${net.url}/ext/index/X/block`;
    const owner = net.facts.keys[0];
    const cases: [url: string, method: string, params: string, message: string][] = [
      // An exponent or a fraction is not a uint64's syntax, whatever its value.
      ...['0e0', '0.0', '1e0'].map((literal): [string, string, string, string] => [
        p,
        'platform.getBlockByHeight',
        `{"height":${literal},"encoding":"hex"}`,
        parseUint('height', literal),
      ]),
      // Wrapped in an array, with the key in another case, and quoted, the same.
      [x, 'avm.getBlockByHeight', '[{"HEIGHT":1E2}]', parseUint('height', '1E2')],
      [x, 'avm.getBlockByHeight', '{"height":"1e2"}', parseUint('height', '1e2')],
      // Every uint64 sent as a number is taken with every digit; one past it is out of range.
      [index, 'index.getContainerByIndex', `{"index":${UINT64_MAX}}`, `no container at index ${UINT64_MAX}`],
      [
        index,
        'index.getContainerByIndex',
        '{"index":18446744073709551616}',
        parseUint('index', '18446744073709551616', 'value out of range'),
      ],
      // getUTXOs' limit is a json.Uint32, sampleValidators' size a json.Uint16.
      [
        p,
        'platform.getUTXOs',
        `{"addresses":["P-${owner.xAddress.slice(2)}"],"limit":4294967296}`,
        parseUint('limit', '4294967296', 'value out of range'),
      ],
      [p, 'platform.sampleValidators', '{"size":65536}', parseUint('size', '65536', 'value out of range')],
      // A platformapi.Height: the largest uint64 stands for "proposed" and is refused as a number.
      ...['platform.getValidatorsAt', 'platform.getAllValidatorsAt'].map(
        (method): [string, string, string, string] => [
          p,
          method,
          `{"height":${UINT64_MAX}}`,
          unmarshal(`height: invalid height: ${UINT64_MAX} stands for "proposed"`),
        ],
      ),
    ];
    for (const [url, method, params, message] of cases)
      assert.equal((await raw(url, call(method, params))).error?.message, message, `${method} ${params}`);
    // In a batch, each call's own literal.
    const batch = await raw(
      index,
      `[${call('index.getContainerRange', '{"startIndex":0,"numToFetch":1e0}')},${call('index.getContainerByIndex', `{"index":${UINT64_MAX}}`)}]`,
    );
    assert.deepEqual(
      batch.map((b: any) => b.error?.message),
      [parseUint('numToFetch', '1e0'), `no container at index ${UINT64_MAX}`],
    );
  });

  it('refuses malformed container ids on the index API instead of reporting them absent', async () => {
    const index = `${net.url}/ext/index/X/block`;
    for (const method of ['index.getContainerByID', 'index.getIndex', 'index.isAccepted']) {
      assert.match(await avalancheError(index, method, { id: 'zzz' }), /couldn't unmarshal.*\(id: "zzz"/);
      assert.match(await avalancheError(index, method, {}), /\(id: missing\)/);
    }
    const wellFormedUnknown = await rpc(index, 'index.isAccepted', { id: AVAX_ASSET_ID });
    assert.deepEqual(wellFormedUnknown.body.result, { isAccepted: false });
    // An unknown id is the index database's own error, as the reference passes it on.
    for (const method of ['index.getContainerByID', 'index.getIndex']) {
      assert.equal(await avalancheError(index, method, { id: AVAX_ASSET_ID }), 'not found');
    }
  });

  it('refuses "" where an ids.ID is due (cb58 refuses a zero-length string), though absent is the empty id', async () => {
    const empty = /^couldn't unmarshal an argument\. .*\((\w+): base58 decoding error: zero length string\)$/;
    const cases: [string, string, Record<string, unknown>][] = [
      [p, 'platform.getTxStatus', { txID: '' }],
      [p, 'platform.getTx', { txID: '' }],
      [p, 'platform.getBlock', { blockID: '' }],
      [p, 'platform.getRewardUTXOs', { txID: '' }],
      [p, 'platform.getL1Validator', { validationID: '' }],
      [p, 'platform.validatedBy', { blockchainID: '' }],
      [p, 'platform.getCurrentValidators', { subnetID: '' }],
      [p, 'platform.getCurrentL1Validators', { subnetID: '' }],
      [p, 'platform.getTotalStake', { subnetID: '' }],
      [p, 'platform.sampleValidators', { size: 1, subnetID: '' }],
      [p, 'platform.getSubnets', { ids: [''] }],
      [x, 'avm.getTx', { txID: '' }],
      [x, 'avm.getTxStatus', { txID: '' }],
      [x, 'avm.getBlock', { blockID: '' }],
      [`${net.url}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', { txID: '' }],
      [`${net.url}/ext/index/X/tx`, 'index.getIndex', { id: '' }],
    ];
    for (const [url, method, params] of cases)
      assert.match(await avalancheError(url, method, params), empty, `${method} ${JSON.stringify(params)}`);
    // A missing subnetID is still the Primary Network, and a missing txID still "nothing".
    assert.ok((await rpc(p, 'platform.getCurrentValidators', {})).body.result.validators.length > 0);
    assert.deepEqual((await rpc(p, 'platform.getTxStatus', {})).body.result, { status: 'Unknown' });
  });

  it('names the param and the expected type when params do not decode', async () => {
    assert.match(
      await avalancheError(x, 'avm.getTx', { txID: 5 }),
      /^couldn't unmarshal an argument\. .*\(txID: expected a string, got 5\)$/,
    );
    assert.match(
      await avalancheError(x, 'avm.getTx', { txID: AVAX_ASSET_ID.slice(0, 40) }),
      /\(txID: ".*" is not a cb58 string with a valid checksum/,
    );
    // A short id (20 bytes, checksum intact) is well formed cb58 but not an id.
    assert.match(
      await avalancheError(x, 'avm.getTx', { txID: '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV' }),
      /\(txID: ".*" is not a 32-byte cb58 ID \(it decodes to 20 bytes\)/,
    );
    assert.match(
      await avalancheError(`${net.url}/ext/index/X/block`, 'index.getContainerRange', {
        startIndex: -1,
        numToFetch: 1,
      }),
      /\(startIndex: strconv\.ParseUint: parsing "-1": invalid syntax\)/,
    );
    assert.match(await avalancheError(x, 'avm.getUTXOs', [1]), /\(params must be .*got \[1\]\)/);
    // Integers too wide for the Go field they decode into fail to unmarshal, like any bad param.
    assert.match(
      await avalancheError(p, 'platform.getBlockByHeight', { height: '18446744073709551616' }),
      /^couldn't unmarshal an argument\. .*\(height: strconv\.ParseUint: parsing "18446744073709551616": value out of range\)$/,
    );
    assert.match(
      await avalancheError(p, 'platform.sampleValidators', { size: 65_536 }),
      /^couldn't unmarshal an argument\. .*\(size: strconv\.ParseUint: parsing "65536": value out of range\)$/,
    );
    assert.match(
      await avalancheError(x, 'avm.getBlockByHeight', { height: '0', encoding: 'xml' }),
      /\(encoding: "xml" is not one of hex, hexnc, hexc, json\)/,
    );
  });

  it('refuses to move the devnet clock past what timestamps can express, and keeps working', async () => {
    assert.match(
      await avalancheError(p, 'platform.advanceTime', { seconds: UINT64_MAX }),
      /^cannot advance the clock by .* seconds: it would pass 9999-12-31T23:59:59Z/,
    );
    // Nothing moved: the P-chain still formats its times and the clock still advances.
    const { body: fee } = await rpc(p, 'platform.getFeeState', {});
    assert.ok(fee.result, JSON.stringify(fee.error));
    const { body: moved } = await rpc(p, 'platform.advanceTime', { seconds: 60 });
    assert.ok(moved.result, JSON.stringify(moved.error));
  });

  it('refuses malformed node IDs in info.peers instead of matching nothing', async () => {
    assert.match(
      await avalancheError(`${net.url}/ext/info`, 'info.peers', { nodeIDs: ['bad'] }),
      /\(nodeIDs: NodeID has no "NodeID-" prefix: bad\)/,
    );
  });

  it('holds the C-chain atomic API to C-chain addresses, uint64 limits and named tx ids', async () => {
    const avax = `${net.url}/ext/bc/C/avax`;
    const owner = net.facts.keys[0];
    assert.match(
      await avalancheError(avax, 'avax.getUTXOs', [{ addresses: [owner.xAddress], sourceChain: 'X' }]),
      /^couldn't parse address "X-.*": expected chainID to be ".*" but was ".*"$/,
    );
    assert.match(
      await avalancheError(avax, 'avax.getUTXOs', [
        { addresses: [owner.cAddress], sourceChain: 'X', limit: -1 },
      ]),
      /\(limit: strconv\.ParseUint: parsing "-1": invalid syntax\)/,
    );
    const listed = await rpc(avax, 'avax.getUTXOs', [{ addresses: [owner.cAddress], sourceChain: 'X' }]);
    assert.equal(listed.body.result?.numFetched, '0');
    for (const method of ['avax.getAtomicTxStatus', 'native.getAtomicTx']) {
      assert.match(await avalancheError(avax, method, [{ txID: 'bad' }]), /\(txID: "bad" is not/);
      assert.equal(await avalancheError(avax, method, [{}]), 'nil transaction ID');
      // The all-zero id written out is the same empty ID to the reference's ids.ID.
      assert.equal(await avalancheError(avax, method, [{ txID: EMPTY_ID }]), 'nil transaction ID');
    }
    for (const method of ['avm.getTx', 'xvm.getTxStatus']) {
      assert.equal(await avalancheError(x, method, {}), 'nil transaction ID');
      assert.equal(await avalancheError(x, method, { txID: EMPTY_ID }), 'nil transaction ID');
    }
  });

  it('parses the empty address when getAllBalances names none, as the reference does', async () => {
    for (const params of [{}, { address: '' }])
      assert.equal(
        await avalancheError(x, 'avm.getAllBalances', params),
        `problem parsing address '': couldn't parse address "": no separator found in address`,
      );
    assert.equal(await avalancheError(x, 'avm.getAllBalances', { addresses: [] }), 'no addresses provided');
  });

  it('reads service addresses and startIndex as each reference service does, on X, P and C', async () => {
    const avax = `${net.url}/ext/bc/C/avax`;
    const [xChain, pChain, cChain] = (['X', 'P', 'C'] as const).map((c) => net.facts.chains[c].blockchainID);
    const owner = net.facts.keys[0];
    const bech = owner.xAddress.slice(2);
    // A raw cb58 short id is an address on every chain, the C-chain's atomic API included.
    const shortId = utils.base58check.encode(utils.bech32ToBytes(owner.xAddress));
    const listed = await rpc(avax, 'avax.getUTXOs', { addresses: [shortId], sourceChain: 'X' });
    assert.equal(listed.body.error, undefined);
    assert.equal(listed.body.result.numFetched, '0');
    assert.equal(listed.body.result.endIndex.address, owner.cAddress);
    // An address of another chain: avalanchego's words on X and P, coreth's on C.
    assert.equal(
      await avalancheError(x, 'avm.getUTXOs', { addresses: [`P-${bech}`] }),
      `couldn't parse address "P-${bech}": mismatched chainIDs: expected "${xChain}" but got "${pChain}"`,
    );
    assert.equal(
      await avalancheError(p, 'platform.getUTXOs', { addresses: [`C-${bech}`] }),
      `couldn't parse address "C-${bech}": mismatched chainIDs: expected "${pChain}" but got "${cChain}"`,
    );
    assert.equal(
      await avalancheError(avax, 'avax.getUTXOs', { addresses: [`X-${bech}`], sourceChain: 'X' }),
      `couldn't parse address "X-${bech}": expected chainID to be "${cChain}" but was "${xChain}"`,
    );
    // The hrp is checked before which chain the address names, the alias before the hrp.
    const fuji = 'P-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t';
    assert.equal(
      await avalancheError(x, 'avm.getUTXOs', { addresses: [fuji] }),
      `couldn't parse address "${fuji}": expected hrp "local" but got "fuji"`,
    );
    assert.equal(
      await avalancheError(p, 'platform.getUTXOs', { addresses: [`Z-${bech}`] }),
      `couldn't parse address "Z-${bech}": there is no ID with alias: Z`,
    );
    // Either startIndex member given means both are read, and each must parse.
    for (const [url, method, address, source] of [
      [x, 'avm.getUTXOs', owner.xAddress, undefined],
      [p, 'platform.getUTXOs', owner.pAddress, undefined],
      [avax, 'avax.getUTXOs', owner.cAddress, 'X'],
    ] as const) {
      const call = (startIndex: unknown) =>
        avalancheError(url, method, { addresses: [address], sourceChain: source, startIndex });
      assert.equal(
        await call({ address }),
        "couldn't parse start index utxo: input string is smaller than the checksum size",
      );
      assert.equal(
        await call({ utxo: AVAX_ASSET_ID }),
        `couldn't parse start index address "": couldn't parse address "": no separator found in address`,
      );
      assert.match(
        await call({ address: 'foo', utxo: AVAX_ASSET_ID }),
        /^couldn't parse start index address "foo": couldn't parse address "foo": no separator found/,
      );
    }
    // The deprecated balance calls wrap the address error once more.
    assert.equal(
      await avalancheError(x, 'avm.getBalance', { address: 'foo', assetID: 'AVAX' }),
      `problem parsing address 'foo': couldn't parse address "foo": no separator found in address`,
    );
    assert.equal(
      await avalancheError(x, 'avm.getAllBalances', { address: `P-${bech}` }),
      `problem parsing address 'P-${bech}': couldn't parse address "P-${bech}": mismatched chainIDs: expected "${xChain}" but got "${pChain}"`,
    );
  });

  it('holds EVM methods to their arity and argument types, as geth does', async () => {
    const evmError = async (method: string, params: unknown[]) => {
      const { body } = await rpc(c, method, params);
      assert.ok(body.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(body.result)}`);
      assert.equal(body.error.code, -32602);
      return body.error.message as string;
    };
    for (const method of [
      'eth_gasPrice',
      'eth_baseFee',
      'eth_maxPriorityFeePerGas',
      'eth_getChainConfig',
      'eth_accounts',
      'eth_coinbase',
      'eth_syncing',
      'net_version',
      'net_listening',
      'personal_listAccounts',
      'txpool_status',
      'txpool_content',
      'txpool_inspect',
    ]) {
      assert.equal(await evmError(method, [1]), 'too many arguments, want at most 0', method);
    }
    assert.equal(
      await evmError('eth_getUncleCountByBlockNumber', []),
      'missing value for required argument 0',
    );
    assert.match(await evmError('eth_getUncleByBlockHashAndIndex', ['zz', '0x0']), /^invalid argument 0/);
    assert.equal(
      await evmError('eth_getBalance', ['zz', 'latest']),
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address',
    );
    assert.equal(
      await evmError('eth_getBalance', ['0x1234', 'latest']),
      'invalid argument 0: hex string has length 4, want 40 for common.Address',
    );
    assert.equal(
      await evmError('eth_getBlockByNumber', ['0x8000000000000000', false]),
      'invalid argument 0: block number larger than int64',
    );
    assert.equal(
      await evmError('eth_getBlockByNumber', ['0x10000000000000000', false]),
      'invalid argument 0: hex number > 64 bits',
    );
    // A block number string is read by hexutil.DecodeUint64, whose errors come through bare.
    for (const [block, why] of [
      ['', 'empty hex string'],
      ['12', 'hex string without 0x prefix'],
      ['0x', 'hex string "0x"'],
      ['0x01', 'hex number with leading zero digits'],
      ['0xzz', 'invalid hex string'],
    ]) {
      assert.equal(await evmError('eth_getBlockByNumber', [block, false]), `invalid argument 0: ${why}`);
      assert.equal(
        await evmError('eth_getBalance', ['0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', block]),
        `invalid argument 1: ${why}`,
      );
    }
    assert.equal(await evmError('warp_getMessage', []), 'missing value for required argument 0');
    // A filter id is geth's rpc.ID, a string: another JSON type fails to decode (uninstalling
    // answered false, as for a string id of no filter).
    for (const method of ['eth_uninstallFilter', 'eth_getFilterChanges', 'eth_getFilterLogs'])
      for (const [id, kind] of [
        [5, 'number'],
        [{}, 'object'],
        [[], 'array'],
        [true, 'bool'],
      ] as const)
        assert.equal(
          await evmError(method, [id]),
          `invalid argument 0: json: cannot unmarshal ${kind} into Go value of type rpc.ID`,
          `${method} ${JSON.stringify(id)}`,
        );
    assert.equal((await rpc(c, 'eth_uninstallFilter', ['0x1'])).body.result, false);

    // No block has uncles: a known block counts 0, an unknown one is null.
    assert.equal((await rpc(c, 'eth_getUncleCountByBlockNumber', ['0x0'])).body.result, '0x0');
    assert.equal((await rpc(c, 'eth_getUncleCountByBlockNumber', ['0x999'])).body.result, null);
  });
  it("reads a block number-or-hash as coreth's BlockNumberOrHash, a block number as its BlockNumber", async () => {
    const who = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    const to = '0x00000000000000000000000000000000000000aa';
    const refusal = async (method: string, params: unknown[]) => {
      const { body } = await rpc(c, method, params);
      assert.ok(body.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(body.result)}`);
      assert.equal(body.error.code, -32602, `${method} ${JSON.stringify(params)}`);
      return body.error.message as string;
    };
    // BlockNumberOrHash tries an object, then a Go string: any other JSON value fails as a string.
    for (const [block, kind] of [
      [1, 'number'],
      [true, 'bool'],
      [[], 'array'],
    ] as const) {
      const why = `json: cannot unmarshal ${kind} into Go value of type string`;
      assert.equal(await refusal('eth_getBalance', [who, block]), `invalid argument 1: ${why}`);
      assert.equal(await refusal('eth_getCode', [who, block]), `invalid argument 1: ${why}`);
      assert.equal(await refusal('eth_call', [{ to }, block]), `invalid argument 1: ${why}`);
      assert.equal(await refusal('eth_getStorageAt', [who, '0x0', block]), `invalid argument 2: ${why}`);
      assert.equal(await refusal('eth_getBlockReceipts', [block]), `invalid argument 0: ${why}`);
      // BlockNumber reads the raw JSON as hex text.
      assert.equal(
        await refusal('eth_getBlockByNumber', [block, false]),
        'invalid argument 0: hex string without 0x prefix',
      );
    }
    // Past int64: each type has its own words.
    assert.equal(
      await refusal('eth_getBalance', [who, '0x8000000000000000']),
      'invalid argument 1: blocknumber too high',
    );
    assert.equal(
      await refusal('eth_estimateGas', [{ to }, '0xffffffffffffffff']),
      'invalid argument 1: blocknumber too high',
    );
    // An EIP-1898 object whose field does not decode fails as its string attempt does.
    for (const block of [
      { blockNumber: 1 },
      { blockNumber: '0x8000000000000000' },
      { blockHash: '0x12' },
      { blockNumber: '0x0', requireCanonical: 'yes' },
    ])
      assert.equal(
        await refusal('eth_getBalance', [who, block]),
        'invalid argument 1: json: cannot unmarshal object into Go value of type string',
        JSON.stringify(block),
      );
    // encoding/json matches field names ignoring case.
    const atGenesis = (await rpc(c, 'eth_getBalance', [who, '0x0'])).body.result as string;
    assert.equal((await rpc(c, 'eth_getBalance', [who, { BLOCKNUMBER: '0x0' }])).body.result, atGenesis);
    // A hash is no BlockNumber, nor is an EIP-1898 object.
    const genesis = (await rpc(c, 'eth_getBlockByNumber', ['0x0', false])).body.result.hash as string;
    // (A hash whose first digit is 0 is refused for its leading zero first.)
    assert.equal(
      await refusal('eth_getBlockByNumber', [genesis, false]),
      genesis[2] === '0'
        ? 'invalid argument 0: hex number with leading zero digits'
        : 'invalid argument 0: hex number > 64 bits',
    );
    assert.equal(
      await refusal('eth_getHeaderByNumber', [{ blockNumber: '0x0' }]),
      'invalid argument 0: hex string without 0x prefix',
    );
    // A 66-character string is a hash whichever case its prefix is written in.
    const upper = `0X${genesis.slice(2)}`;
    assert.equal((await rpc(c, 'eth_getBlockReceipts', [upper])).body.result.length, 0);
    assert.equal(
      await refusal('eth_getBalance', [who, `00${genesis.slice(2)}`]),
      'invalid argument 1: hex string without 0x prefix',
    );
  });

  it('reads a JSON null block as coreth does: no block for a required one, latest for an optional one', async () => {
    const who = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    const to = '0x00000000000000000000000000000000000000aa';
    const failure = async (method: string, params: unknown[]) => {
      const { body } = await rpc(c, method, params);
      assert.ok(body.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(body.result)}`);
      return { code: body.error.code as number, message: body.error.message as string };
    };
    const result = async (method: string, params: unknown[]) => {
      const { body } = await rpc(c, method, params);
      assert.equal(body.error, undefined, `${method} ${JSON.stringify(params)}`);
      return body.result as unknown;
    };
    // A required BlockNumberOrHash decodes null as naming neither block nor hash (-32000).
    const neither = { code: -32000, message: 'invalid arguments; neither block nor hash specified' };
    for (const [method, params] of [
      ['eth_getBalance', [who, null]],
      ['eth_getCode', [who, null]],
      ['eth_getTransactionCount', [who, null]],
      ['eth_getStorageAt', [who, '0x0', null]],
      ['eth_callDetailed', [{ to }, null]],
      ['debug_traceCall', [{ to }, null]],
      ['debug_getRawHeader', [null]],
      ['debug_storageRangeAt', [null, 0, to, '0x', 1]],
    ] as const)
      assert.deepEqual(await failure(method, [...params]), neither, method);
    assert.deepEqual(await failure('eth_getProof', [who, [], null]), {
      code: -32000,
      message: 'historical proof query not allowed: block number or hash not provided',
    });
    assert.deepEqual(await failure('debug_accountRange', [null, '0x', 1, true, true, false]), {
      code: -32000,
      message: 'either block number or block hash must be specified',
    });
    // eth_getBlockReceipts answers null for a block it cannot find, this one included.
    assert.equal(await result('eth_getBlockReceipts', [null]), null);
    assert.equal(await result('eth_getBlockReceipts', [{}]), null);
    // A required BlockNumber reads null as hex text without its prefix (-32602).
    for (const [method, params, arg] of [
      ['eth_getBlockByNumber', [null, false], 0],
      ['eth_getHeaderByNumber', [null], 0],
      ['eth_getBlockTransactionCountByNumber', [null], 0],
      ['eth_feeHistory', ['0x1', null, []], 1],
      ['debug_traceBlockByNumber', [null], 0],
    ] as const)
      assert.deepEqual(
        await failure(method, [...params]),
        { code: -32602, message: `invalid argument ${arg}: hex string without 0x prefix` },
        method,
      );
    // A missing required block is missing, not latest.
    for (const method of ['eth_callDetailed', 'debug_traceCall'])
      assert.deepEqual(await failure(method, [{ to }]), {
        code: -32602,
        message: 'missing value for required argument 1',
      });
    // An optional *BlockNumberOrHash: null, trailing or not, is absent, so latest.
    assert.equal(await result('eth_call', [{ to }, null]), '0x');
    assert.equal(await result('eth_call', [{ to }, null, null, null]), '0x');
    assert.equal(await result('eth_estimateGas', [{ to }, null]), await result('eth_estimateGas', [{ to }]));
    assert.deepEqual(
      await result('eth_createAccessList', [{ to }, null]),
      await result('eth_createAccessList', [{ to }, 'latest']),
    );
    // Other Go values take null as their zero value: storage key "" (slot 0), no proof keys.
    assert.equal(
      await result('eth_getStorageAt', [to, null, 'latest']),
      await result('eth_getStorageAt', [to, '0x0', 'latest']),
    );
    assert.deepEqual(
      ((await result('eth_getProof', [to, null, 'latest'])) as { storageProof: unknown[] }).storageProof,
      [],
    );
  });

  it('reads a JSON null in any other required argument as geth decodes it into the Go type', async () => {
    const answer = async (method: string, params: unknown[]) => (await rpc(c, method, params)).body;
    const result = async (method: string, params: unknown[]) => {
      const body = await answer(method, params);
      assert.equal(body.error, undefined, `${method} ${JSON.stringify(params)}: ${body.error?.message}`);
      return body.result as unknown;
    };
    const error = async (method: string, params: unknown[]) => {
      const body = await answer(method, params);
      assert.ok(body.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(body.result)}`);
      return { code: body.error.code as number, message: body.error.message as string };
    };
    const nonString = (arg: number, type: string) => ({
      code: -32602,
      message: `invalid argument ${arg}: json: cannot unmarshal non-string into Go value of type ${type}`,
    });
    // A struct (TransactionArgs, FilterCriteria) decodes null as its zero value: an empty request.
    assert.equal(await result('eth_call', [null, 'latest']), '0x');
    const same = async (method: string, params: unknown[]) => {
      const { result: r, error: e } = await answer(method, params);
      return { result: r, error: e };
    };
    for (const [method, rest] of [
      ['eth_estimateGas', []],
      ['eth_createAccessList', []], // a request naming no recipient and no code: setDefaults refuses it
      ['eth_callDetailed', ['latest']],
      ['eth_getLogs', []],
    ] as const)
      assert.deepEqual(await same(method, [null, ...rest]), await same(method, [{}, ...rest]), method);
    assert.match((await result('eth_newFilter', [null])) as string, /^0x[0-9a-f]+$/);
    // An empty request names no account to send or sign with, and no gas.
    assert.deepEqual(await error('eth_sendTransaction', [null]), {
      code: -32000,
      message: 'unknown account',
    });
    assert.deepEqual(await error('eth_signTransaction', [null]), {
      code: -32000,
      message: 'gas not specified',
    });
    // An rpc.ID (a Go string) decodes null as the empty id, which names no filter.
    assert.equal(await result('eth_uninstallFilter', [null]), false);
    assert.deepEqual(await error('eth_getFilterChanges', [null]), {
      code: -32000,
      message: 'filter not found',
    });
    // A plain uint64 is 0: block 0, whose parent there is none.
    assert.deepEqual(await error('debug_getModifiedAccountsByNumber', [null]), {
      code: -32000,
      message: 'block 0 has no parent',
    });
    // Hashes, addresses, bytes and indexes hand null to their UnmarshalJSON, which wants a string.
    const genesis = ((await result('eth_getBlockByNumber', ['0x0', false])) as { hash: string }).hash;
    const who = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    for (const [method, params, arg, type] of [
      ['eth_getTransactionByHash', [null], 0, 'common.Hash'],
      ['eth_getTransactionReceipt', [null], 0, 'common.Hash'],
      ['eth_getRawTransactionByHash', [null], 0, 'common.Hash'],
      ['eth_getBlockByHash', [null, false], 0, 'common.Hash'],
      ['eth_getHeaderByHash', [null], 0, 'common.Hash'],
      ['eth_getBlockTransactionCountByHash', [null], 0, 'common.Hash'],
      ['eth_getUncleCountByBlockHash', [null], 0, 'common.Hash'],
      ['eth_getTransactionByBlockHashAndIndex', [null, '0x0'], 0, 'common.Hash'],
      ['eth_getTransactionByBlockHashAndIndex', [genesis, null], 1, 'hexutil.Uint'],
      ['eth_getTransactionByBlockNumberAndIndex', ['latest', null], 1, 'hexutil.Uint'],
      ['eth_getRawTransactionByBlockNumberAndIndex', ['latest', null], 1, 'hexutil.Uint'],
      ['eth_getUncleByBlockHashAndIndex', [genesis, null], 1, 'hexutil.Uint'],
      ['debug_traceTransaction', [null], 0, 'common.Hash'],
      ['debug_traceBlockByHash', [null], 0, 'common.Hash'],
      ['debug_intermediateRoots', [null], 0, 'common.Hash'],
      ['debug_getRawTransaction', [null], 0, 'common.Hash'],
      ['debug_preimage', [null], 0, 'common.Hash'],
      ['debug_getModifiedAccountsByHash', [null], 0, 'common.Hash'],
      ['eth_getBalance', [null, 'latest'], 0, 'common.Address'],
      ['txpool_contentFrom', [null], 0, 'common.Address'],
      ['eth_sign', [null, '0x'], 0, 'common.Address'],
      ['eth_sign', [who, null], 1, 'hexutil.Bytes'],
      ['eth_sendRawTransaction', [null], 0, 'hexutil.Bytes'],
      ['web3_sha3', [null], 0, 'hexutil.Bytes'],
      ['debug_traceBlock', [null], 0, 'hexutil.Bytes'],
      ['debug_accountRange', ['latest', null, 1, true, true, false], 1, 'hexutil.Bytes'],
    ] as const)
      assert.deepEqual(
        await error(method, [...params]),
        nonString(arg, type),
        `${method} ${JSON.stringify(params)}`,
      );
    // The same words reach a viem client.
    const client = createPublicClient({ transport: http(c) });
    await assert.rejects(
      client.request({ method: 'eth_getTransactionByHash', params: [null as unknown as Hex] }),
      (err: Error) => err.message.includes(nonString(0, 'common.Hash').message),
    );
  });

  it("reads eth_feeHistory's blockCount as coreth's HexOrDecimal64", async () => {
    const history = async (count: unknown) => {
      const { body } = await rpc(c, 'eth_feeHistory', [count, 'latest', []]);
      return body;
    };
    const one = (await history('0x1')).result;
    assert.equal(one.baseFeePerGas.length, 1);
    // A hex string, a decimal string, a JSON number, leading zeros: the same count.
    for (const count of ['1', 1, '0x01', '0X1', '001'])
      assert.deepEqual((await history(count)).result, one, JSON.stringify(count));
    // The empty string is zero.
    assert.deepEqual((await history('')).result, (await history(0)).result);
    // Anything else is refused with its JSON text, as Go quotes it.
    for (const [count, text] of [
      [null, 'null'],
      [true, 'true'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['0x', '0x'],
      ['1e3', '1e3'],
      ['+1', '+1'],
      ['0xg', '0xg'],
      ['18446744073709551616', '18446744073709551616'],
      ['0x10000000000000000', '0x10000000000000000'],
    ] as const) {
      const { error } = await history(count);
      assert.deepEqual(
        error && { code: error.code, message: error.message },
        {
          code: -32602,
          message: `invalid argument 0: invalid hex or decimal integer ${JSON.stringify(text)}`,
        },
        JSON.stringify(count),
      );
    }
    // The widest uint64 is a count (capped at coreth's 2048 blocks).
    assert.ok((await history('18446744073709551615')).result.baseFeePerGas.length >= 1);
  });

  it("refuses EVM quantities wider than geth's types instead of running with them", async () => {
    const wide = '0x1' + '0'.repeat(100); // 401 bits
    const to = '0x00000000000000000000000000000000000000aa';
    const refusal = async (method: string, params: unknown[]) => {
      const { body } = await rpc(c, method, params);
      assert.ok(body.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(body.result)}`);
      assert.equal(body.error.code, -32602);
      return body.error.message as string;
    };
    const big = (arg: number, field: string) =>
      `invalid argument ${arg}: json: cannot unmarshal hex number > 256 bits into Go value of type hexutil.Big (${field})`;
    const uint64 = (arg: number, field: string) =>
      `invalid argument ${arg}: json: cannot unmarshal hex number > 64 bits into Go value of type hexutil.Uint64 (${field})`;
    assert.equal(await refusal('eth_call', [{ to, value: wide }, 'latest']), big(0, 'value'));
    assert.equal(await refusal('eth_call', [{ to, gasPrice: wide }, 'latest']), big(0, 'gasPrice'));
    // gas and nonce are uint64: a 65-bit gas ran as the cap, a wide nonce reached the engine.
    assert.equal(await refusal('eth_call', [{ to, gas: '0x10000000000000000' }, 'latest']), uint64(0, 'gas'));
    assert.equal(await refusal('eth_estimateGas', [{ to, nonce: wide }]), uint64(0, 'nonce'));
    assert.equal(await refusal('eth_createAccessList', [{ to, gas: wide }, 'latest']), uint64(0, 'gas'));
    assert.equal(
      await refusal('eth_call', [{ to }, 'latest', { [to]: { balance: wide } }]),
      big(2, 'balance'),
    );
    assert.equal(await refusal('eth_call', [{ to }, 'latest', null, { time: wide }]), uint64(3, 'time'));
    // The widest values each type holds still run.
    const max256 = '0x' + 'f'.repeat(64);
    const ok = await rpc(c, 'eth_call', [
      { to, gas: '0xffffffffffffffff' },
      'latest',
      { [to]: { balance: max256 } },
    ]);
    assert.equal(ok.body.result, '0x');
  });

  it("answers JSON nested deeper than JSON.stringify recurses, within Go's 10,000 levels, as any other value", async () => {
    // 9,000 levels decode in Go (and pass the body decoder) but overflow V8's recursive
    // JSON.stringify: quoting or echoing such a value must not become "Maximum call stack size
    // exceeded" or a 500.
    const deep = '['.repeat(9_000) + '1' + ']'.repeat(9_000);
    const deepObject = '{"a":'.repeat(9_000) + '1' + '}'.repeat(9_000);
    const post = async (path: string, body: string) => {
      const res = await fetch(`${net.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = await res.text();
      assert.equal(res.status, 200, text.slice(0, 200));
      return { text, body: JSON.parse(text) };
    };
    // Params of no argument's shape, whole or as one member: the unmarshal error naming them.
    for (const [path, method, params] of [
      ['/ext/bc/X', 'avm.getHeight', deep],
      ['/ext/info', 'info.getNodeID', deep],
      ['/ext/bc/P', 'platform.getBlockByHeight', `{"height":${deepObject}}`],
      ['/ext/bc/X', 'avm.getBalance', `{"address":${deep}}`],
    ]) {
      const { body } = await post(path, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`);
      assert.equal(body.error?.code, -32000, method);
      assert.match(body.error.message, /^couldn't unmarshal an argument.* got [[{]/, method);
    }
    // A request the reference echoes in the error's data, and an id it echoes as sent.
    const echoed = await post(
      '/ext/bc/X',
      `{"jsonrpc":"1.0","id":1,"method":"avm.getHeight","params":${deep}}`,
    );
    assert.deepEqual(
      { code: echoed.body.error.code, message: echoed.body.error.message },
      { code: -32600, message: 'jsonrpc must be 2.0' },
    );
    assert.ok(echoed.text.includes(`"params":${deep}`));
    const deepId = await post('/ext/bc/X', `{"jsonrpc":"2.0","id":${deepObject},"method":"avm.getHeight"}`);
    assert.ok(deepId.body.result.height, deepId.text.slice(0, 200));
    assert.ok(deepId.text.includes(`"id":${deepObject}`));
    // geth quotes a HexOrDecimal64's raw JSON text whatever it holds.
    const { body } = await post(
      '/ext/bc/C/rpc',
      `{"jsonrpc":"2.0","id":1,"method":"eth_feeHistory","params":[${deep},"latest",[]]}`,
    );
    assert.deepEqual(body.error, {
      code: -32602,
      message: `invalid argument 0: invalid hex or decimal integer ${JSON.stringify(deep)}`,
    });
    // A JavaScript tracer's setup gets its tracerConfig's JSON text (as geth's does), however deep.
    const depthOf =
      '{setup: function(t) { var c = JSON.parse(t); this.d = 0; while (c.a !== undefined) { c = c.a; this.d++; } },' +
      ' result: function() { return this.d; }, fault: function() {}}';
    const traced = await post(
      '/ext/bc/C/rpc',
      '{"jsonrpc":"2.0","id":1,"method":"debug_traceCall","params":[{"to":"0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},' +
        `"latest",{"tracer":${JSON.stringify(depthOf)},"tracerConfig":${deepObject}}]}`,
    );
    assert.equal(traced.body.result, 9_000, traced.text.slice(0, 200));
  });

  it('answers every method, whatever its params, with a result or an error object of its flavour', async () => {
    // Every method the public SDKs call, on its endpoint, with params of every wrong shape and
    // values a careless or hostile client sends: an oversized string (ids and addresses are
    // decoded from base58, which is quadratic), numbers past 64 bits, wrong types.
    const avalanche: Record<string, string[]> = {
      '/ext/bc/X': [
        'avm.getAllBalances',
        'avm.getAssetDescription',
        'avm.getBalance',
        'avm.getBlock',
        'avm.getBlockByHeight',
        'avm.getHeight',
        'avm.getTx',
        'avm.getTxFee',
        'avm.getTxStatus',
        'avm.getUTXOs',
        'avm.issueTx',
      ],
      '/ext/bc/P': [
        'platform.getBalance',
        'platform.getBlock',
        'platform.getBlockByHeight',
        'platform.getBlockchainStatus',
        'platform.getBlockchains',
        'platform.getCurrentSupply',
        'platform.getCurrentValidators',
        'platform.getFeeState',
        'platform.getL1Validator',
        'platform.getRewardUTXOs',
        'platform.getStake',
        'platform.getSubnet',
        'platform.getSubnets',
        'platform.getTotalStake',
        'platform.getTx',
        'platform.getTxStatus',
        'platform.getUTXOs',
        'platform.getValidatorsAt',
        'platform.issueTx',
        'platform.sampleValidators',
        'platform.validatedBy',
        'platform.validates',
      ],
      '/ext/info': [
        'info.getBlockchainID',
        'info.getNodeID',
        'info.isBootstrapped',
        'info.peers',
        'info.uptime',
      ],
      '/ext/health': ['health.health', 'health.readiness'],
      '/ext/index/X/tx': [
        'index.getContainerByID',
        'index.getContainerByIndex',
        'index.getContainerRange',
        'index.getIndex',
        'index.getLastAccepted',
        'index.isAccepted',
      ],
      '/ext/bc/C/avax': ['avax.getAtomicTx', 'avax.getAtomicTxStatus', 'avax.getUTXOs', 'avax.issueTx'],
      '/ext/bc/P/proposervm': ['proposervm.getCurrentEpoch', 'proposervm.getProposedHeight'],
    };
    const evm = [
      'eth_getBalance',
      'eth_call',
      'eth_estimateGas',
      'eth_getBlockByNumber',
      'eth_getBlockByHash',
      'eth_getTransactionReceipt',
      'eth_getLogs',
      'eth_sendRawTransaction',
      'eth_feeHistory',
      'eth_getProof',
      'debug_traceTransaction',
      'warp_getMessage',
      'warp_getBlockSignature',
    ];
    const keys = [
      'txID',
      'address',
      'addresses',
      'blockID',
      'height',
      'id',
      'startIndex',
      'subnetID',
      'encoding',
      'tx',
    ];
    const values: unknown[] = [null, -1, '', 'x'.repeat(100_000), '18446744073709551616', [1, 'a'], { a: 1 }];
    const shapes: unknown[] = [undefined, null, {}, [], [{}], 'text', 5];

    let calls = 0;
    const check = async (path: string, body: Record<string, unknown>, evmStyle: boolean) => {
      // A hang is a failure: each answer must come while the sweep goes on.
      const res = await fetch(`${net.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const what = `${path} ${JSON.stringify(body).slice(0, 160)}`;
      assert.equal(res.status, 200, what);
      const answer = (await res.json()) as any;
      assert.equal(answer.jsonrpc, '2.0', what);
      calls++;
      if (!answer.error) return assert.ok('result' in answer, what);
      assert.equal(typeof answer.error.message, 'string', what);
      if (!evmStyle) assert.equal(answer.error.code, -32000, what);
      else assert.ok(Number.isInteger(answer.error.code), what);
      assert.doesNotMatch(
        answer.error.message,
        /undefined|NaN|\[object|TypeError|RangeError|SQLITE|Loss of precision|Invalid time value/,
        what,
      );
    };
    for (const [path, methods] of Object.entries(avalanche))
      for (const method of methods) {
        for (const params of shapes) await check(path, { jsonrpc: '2.0', id: 1, method, params }, false);
        for (const key of keys)
          for (const value of values)
            await check(path, { jsonrpc: '2.0', id: 1, method, params: { [key]: value } }, false);
      }
    for (const method of evm) {
      for (const params of shapes)
        await check('/ext/bc/C/rpc', { jsonrpc: '2.0', id: 1, method, params }, true);
      for (const value of values) {
        await check('/ext/bc/C/rpc', { jsonrpc: '2.0', id: 1, method, params: [value] }, true);
        await check(
          '/ext/bc/C/rpc',
          {
            jsonrpc: '2.0',
            id: 1,
            method,
            params: [{ to: value, data: value, fromBlock: value, address: value }, value],
          },
          true,
        );
      }
    }
    assert.ok(calls > 3_000);
    // And the node still answers.
    assert.ok((await rpc(`${net.url}/ext/info`, 'info.getNodeID')).body.result.nodeID);
  });
});

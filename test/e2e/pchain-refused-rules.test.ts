/**
 * The P-chain's staker, subnet, chain and L1 rules refuse a tx in the reference's words, wrapping
 * and order (avalanchego's SyntacticVerify of each tx, staker_tx_verification.go,
 * standard_tx_executor.go, subnet_tx_verification.go and VerifyWarpMessages), under the envelope
 * its `issueTx` answers: `couldn't issue tx: failed verification: failed execution: standard tx
 * <txID> failed execution: <why>`. Each tx is built by avalanchejs v5 and sent through
 * `platform.issueTx`; the state stays as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTxSignatures,
  BigIntPr,
  Bytes,
  Context,
  pvm,
  secp256k1,
  utils,
  type Common,
} from '@avalabs/avalanchejs';
import { startDevnet, type Devnet } from '../helpers/devnet.js';
import {
  blsKey,
  EWOQ_ADDR,
  EWOQ_KEY,
  EWOQ_P,
  executionRefusal,
  l1Validator,
  pResult,
  registerPayload,
  signAndIssue,
  signAuth,
  signedWarp,
  signedWarpPayload,
  testNodeId,
  txIdOf,
  weightPayload,
} from './pchain-helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
const AVAX = 1_000_000_000n;
const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const EXECUTION = "couldn't issue tx: failed verification: failed execution: ";
const OTHER_KEY = utils.hexToBuffer('0x' + '43'.repeat(32));
const OTHER_ADDR = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(OTHER_KEY));
const MANAGER = utils.hexToBuffer('0x' + 'ab'.repeat(20));
const DAY = 24n * 3600n;

describe('P-chain staker, subnet, chain and L1 rules in the reference words', () => {
  let net: Devnet;
  let ctx: Context.Context;
  let api: pvm.PVMApi;
  let genesisNode: string;
  let subnet: string;
  let l1: string;
  let l1Chain: string;
  let l1ValidationId: string;
  const l1Key = blsKey('rules-l1');
  const l1Node = testNodeId(120);

  const utxos = async () => (await api.getUTXOs({ addresses: [EWOQ_P] })).utxos;
  const base = async () => ({
    feeState: await api.getFeeState(),
    fromAddressesBytes: [EWOQ_ADDR],
    utxos: await utxos(),
  });
  const now = async () => BigInt(Math.floor(Date.parse((await api.getTimestamp()).timestamp) / 1000));
  const snapshot = async () => ({
    height: (await api.getHeight()).height,
    balance: (await api.getBalance({ addresses: [EWOQ_P] })).balance,
  });

  /** Signs (the auth with EWOQ too when `auth`), issues, and expects `why` word for word. */
  const refuses = async (
    tx: Common.UnsignedTx,
    why: string | RegExp,
    opts: { auth?: boolean; envelope?: string } = {},
  ) => {
    const before = await snapshot();
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ_KEY] });
    if (opts.auth) await signAuth(tx, EWOQ_KEY);
    // The executor's refusals carry StandardTx's layer, naming the (now signed) tx.
    const envelope = opts.envelope ?? `${EXECUTION}standard tx ${txIdOf(tx)} failed execution: `;
    await assert.rejects(api.issueSignedTx(tx.getSignedTx()), (err: Error) => {
      if (typeof why === 'string') assert.equal(err.message, envelope + why);
      else {
        assert.ok(err.message.startsWith(envelope), err.message);
        assert.match(err.message.slice(envelope.length), why);
      }
      return true;
    });
    assert.deepEqual(await snapshot(), before);
  };

  const validator = async (o: Partial<pvm.NewAddPermissionlessValidatorTxProps> = {}) => {
    const key = blsKey(`rules-validator-${o.nodeId ?? 'x'}`);
    return pvm.newAddPermissionlessValidatorTx(
      {
        ...(await base()),
        nodeId: testNodeId(100),
        subnetId: PRIMARY,
        start: await now(),
        end: (await now()) + 3600n,
        weight: 2_000n * AVAX,
        rewardAddresses: [EWOQ_ADDR],
        delegatorRewardsOwner: [EWOQ_ADDR],
        shares: 20_000,
        publicKey: key.publicKey,
        signature: key.pop,
        ...o,
      },
      ctx,
    );
  };
  const delegator = async (o: Partial<pvm.NewAddPermissionlessDelegatorTxProps> = {}) =>
    pvm.newAddPermissionlessDelegatorTx(
      {
        ...(await base()),
        nodeId: genesisNode,
        subnetId: PRIMARY,
        start: await now(),
        end: (await now()) + 3600n,
        weight: 25n * AVAX,
        rewardAddresses: [EWOQ_ADDR],
        ...o,
      },
      ctx,
    );
  const subnetValidator = async (o: Partial<pvm.NewAddSubnetValidatorTxProps> = {}) =>
    pvm.newAddSubnetValidatorTx(
      {
        ...(await base()),
        nodeId: genesisNode,
        subnetId: subnet,
        subnetAuth: [0],
        start: await now(),
        end: (await now()) + 600n,
        weight: 10n,
        ...o,
      },
      ctx,
    );
  const chain = async (o: Partial<pvm.NewCreateChainTxProps> = {}) =>
    pvm.newCreateChainTx(
      {
        ...(await base()),
        chainName: 'rules',
        subnetId: subnet,
        subnetAuth: [0],
        vmId: SUBNET_EVM,
        fxIds: [],
        genesisData: {},
        ...o,
      },
      ctx,
    );
  /** A message of the L1's manager, signed by its one validator. */
  const fromManager = (payload: Uint8Array, o: { chain?: string; address?: Uint8Array } = {}) =>
    signedWarp(12345, o.chain ?? l1Chain, o.address ?? MANAGER, payload, [l1Key], new Uint8Array([1]));

  before(async () => {
    net = await startDevnet();
    api = new pvm.PVMApi(net.url);
    ctx = await Context.getContextFromURI(net.url);
    genesisNode = (await api.getCurrentValidators()).validators[0].nodeID;
    subnet = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
    l1 = await signAndIssue(
      api,
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [EWOQ_ADDR] }, ctx),
    );
    l1Chain = await signAndIssue(
      api,
      await chain({ subnetId: l1, chainName: 'manager' }),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    await signAndIssue(
      api,
      pvm.newConvertSubnetToL1Tx(
        {
          ...(await base()),
          subnetId: l1,
          chainId: l1Chain,
          address: MANAGER,
          subnetAuth: [0],
          validators: [l1Validator(l1Node, 10n, AVAX, l1Key)],
        },
        ctx,
      ),
      [EWOQ_KEY],
      EWOQ_KEY,
    );
    l1ValidationId = (await pResult(net.url, 'platform.getCurrentValidators', { subnetID: l1 })).validators[0]
      .validationID;
  });
  after(async () => {
    await net?.stop();
  });

  it('AddPermissionlessValidatorTx: syntax, then stake, fee, period and duplicates', async () => {
    await refuses(
      await validator({ shares: 1_000_001 }),
      'a staker can only require at most 1000000 shares from delegators',
    );
    await refuses(
      await validator({ publicKey: undefined, signature: undefined }),
      'invalid signer: hasKey=false != isPrimaryNetwork=true',
    );
    await refuses(await validator({ weight: 1_999n * AVAX }), 'weight of this validator is too low');
    await refuses(await validator({ weight: 3_000_001n * AVAX }), 'weight of this validator is too large');
    await refuses(await validator({ shares: 19_999 }), 'staker charges an insufficient delegation fee');
    await refuses(await validator({ end: (await now()) + 366n * DAY }), 'staking period is too long');
    // A subnet's permissionless validator: the rules of its TransformSubnetTx, which none has.
    await refuses(
      await validator({ subnetId: subnet, publicKey: undefined, signature: undefined }),
      'not found',
    );
    await refuses(
      await validator({ nodeId: genesisNode }),
      `duplicate validator: ${genesisNode} on ${PRIMARY}`,
    );
  });

  it('AddPermissionlessDelegatorTx: stake, the validator, its period and its delegation cap', async () => {
    await refuses(await delegator({ weight: 24n * AVAX }), 'weight of this validator is too low');
    await refuses(await delegator({ end: (await now()) + 366n * DAY }), 'staking period is too long');
    const stranger = testNodeId(101);
    await refuses(
      await delegator({ nodeId: stranger }),
      `failed to fetch the validator for ${stranger} on ${PRIMARY}: not found`,
    );
    await refuses(await delegator({ subnetId: subnet }), 'not found');
    // A validator of its own: 2,000 AVAX for two minutes takes at most 5 × 2,000 AVAX in all.
    const node = testNodeId(102);
    await signAndIssue(api, await validator({ nodeId: node, end: (await now()) + 120n }));
    await refuses(
      await delegator({ nodeId: node, end: (await now()) + 600n }),
      'proposed staking period is not inside dependent staking period',
    );
    await refuses(
      await delegator({ nodeId: node, end: (await now()) + 90n, weight: 8_001n * AVAX }),
      'validator would be over delegated',
    );
  });

  it('AddSubnetValidatorTx and RemoveSubnetValidatorTx: the primary network, duplicates, periods', async () => {
    await refuses(await subnetValidator({ weight: 0n }), 'weight of this validator is too low', {
      auth: true,
    });
    await refuses(await subnetValidator({ end: (await now()) + 366n * DAY }), 'staking period is too long', {
      auth: true,
    });
    const stranger = testNodeId(103);
    await refuses(
      await subnetValidator({ nodeId: stranger }),
      `${stranger} isn't a current or pending validator of the primary network`,
      { auth: true },
    );
    const node = testNodeId(104);
    await signAndIssue(api, await validator({ nodeId: node, end: (await now()) + 120n }));
    await refuses(
      await subnetValidator({ nodeId: node, end: (await now()) + 600n }),
      'proposed staking period is not inside dependent staking period',
      { auth: true },
    );
    await signAndIssue(api, await subnetValidator(), [EWOQ_KEY], EWOQ_KEY);
    await refuses(
      await subnetValidator(),
      `attempted to issue duplicate validator for ${genesisNode} on subnet ${subnet}`,
      { auth: true },
    );
    await refuses(
      pvm.newRemoveSubnetValidatorTx(
        { ...(await base()), nodeId: stranger, subnetId: subnet, subnetAuth: [0] },
        ctx,
      ),
      `${stranger} isn't a current or pending validator of ${subnet}: not found`,
      { auth: true },
    );
  });

  it('CreateChainTx, CreateSubnetTx and TransferSubnetOwnershipTx', async () => {
    await refuses(
      await chain({ subnetId: PRIMARY }),
      "new blockchain can't be validated by primary network",
      {
        auth: true,
      },
    );
    await refuses(await chain({ chainName: 'x'.repeat(129) }), 'name too long', { auth: true });
    await refuses(await chain({ chainName: 'not-allowed' }), 'illegal name character', { auth: true });
    // A subnet id no tx has, and a tx that is no subnet (a chain).
    const unknown = utils.base58check.encode(new Uint8Array(32).fill(7));
    await refuses(await chain({ subnetId: unknown }), 'not found', { auth: true });
    await refuses(await chain({ subnetId: l1Chain }), `"${l1Chain}" is not a subnet`, { auth: true });
    await refuses(await chain({ subnetId: l1 }), `"${l1}" is immutable`, { auth: true });
    await refuses(
      pvm.newCreateSubnetTx({ ...(await base()), subnetOwners: [OTHER_ADDR], threshold: 2 }, ctx),
      'output is unspendable',
    );
    await refuses(
      pvm.newTransferSubnetOwnershipTx(
        { ...(await base()), subnetId: PRIMARY, subnetAuth: [0], subnetOwners: [OTHER_ADDR] },
        ctx,
      ),
      'cannot transfer ownership of a permissionless subnet',
      { auth: true },
    );
  });

  it('ConvertSubnetToL1Tx: the subnet and its validators', async () => {
    const convert = async (subnetId: string, validators: ReturnType<typeof l1Validator>[]) =>
      pvm.newConvertSubnetToL1Tx(
        { ...(await base()), subnetId, chainId: l1Chain, address: MANAGER, subnetAuth: [0], validators },
        ctx,
      );
    const key = blsKey('rules-convert');
    await refuses(
      await convert(PRIMARY, [l1Validator(testNodeId(105), 1n, 0n, key)]),
      'cannot convert a permissionless subnet',
      {
        auth: true,
      },
    );
    // avalanchejs will not build a zero weight: zero it in a built tx.
    const weightless = await convert(subnet, [l1Validator(testNodeId(105), 1n, 0n, key)]);
    (weightless.getTx() as unknown as { validators: { weight: BigIntPr }[] }).validators[0]!.weight =
      new BigIntPr(0n);
    await refuses(weightless, 'validator weight must be non-zero', {
      auth: true,
    });
    // A proof by another key (avalanchejs checks the proofs it builds: swap one in a built tx).
    const mine = blsKey('rules-convert-pop');
    const forged = await convert(subnet, [l1Validator(testNodeId(105), 1n, 0n, mine)]);
    const signer = (forged.getTx() as unknown as { validators: { signer: { signature: Uint8Array } }[] })
      .validators[0]!.signer;
    assert.deepEqual(signer.signature, mine.pop);
    signer.signature.set(blsKey('rules-convert-other').pop);
    await refuses(forged, 'invalid proof of possession', { auth: true });
    await refuses(await convert(l1, [l1Validator(testNodeId(105), 1n, 0n, key)]), `"${l1}" is immutable`, {
      auth: true,
    });
  });

  it('RegisterL1ValidatorTx: the message, its source, its expiry, its replay and the proof', async () => {
    const key = blsKey('rules-register');
    const node = testNodeId(106);
    const register = async (
      payload: Uint8Array,
      o: { chain?: string; address?: Uint8Array; pop?: Uint8Array } = {},
    ) =>
      pvm.newRegisterL1ValidatorTx(
        {
          ...(await base()),
          balance: AVAX,
          blsSignature: o.pop ?? key.pop,
          message: fromManager(payload, o),
        },
        ctx,
      );
    const payload = async (expiry: bigint, o: { subnet?: string; weight?: bigint } = {}) =>
      registerPayload(o.subnet ?? l1, node, key, expiry, EWOQ_ADDR, o.weight ?? 5n);
    const t = await now();
    await refuses(await register(await payload(t + 600n, { weight: 0n })), 'invalid weight');
    await refuses(
      await register(await payload(t + 600n, { subnet })),
      `could not load subnet conversion for ${subnet} with: not found`,
    );
    await refuses(
      await register(await payload(t + 600n), { address: OTHER_ADDR }),
      `wrong warp message source address expected 0x${'ab'.repeat(20)} but got 0x${Buffer.from(OTHER_ADDR).toString('hex')}`,
    );
    // Against the time of the block the tx would go into (the clock's, at least the last block's).
    await refuses(
      await register(await payload(t - 1n)),
      new RegExp(`^warp message expired at ${t - 1n} and it is currently \\d+$`),
    );
    await refuses(
      await register(await payload(t + 2n * DAY)),
      /^warp message not yet allowed because time is 17\d{4} seconds in the future but the limit is 86400$/,
    );
    await refuses(
      await register(await payload(t + 600n), { pop: blsKey('rules-other').pop }),
      'invalid proof of possession',
    );
    // The same node twice on one L1.
    await refuses(
      await register(registerPayload(l1, l1Node, key, t + 600n, EWOQ_ADDR, 5n)),
      'L1 validator contains duplicate subnetID + nodeID pair',
    );
  });

  it('Warp messages: an aggregate signature that does not parse, in bls.SignatureFromBytes words', async () => {
    const WARP = "couldn't issue tx: failed verification: failed verifying warp messages: ";
    const weight = weightPayload(l1ValidationId, 9n, 30n);
    /** The manager's message with its 96-byte aggregate signature replaced. */
    const withSignature = (first: number, last: number) => {
      const bytes = fromManager(weight);
      const sig = bytes.subarray(bytes.length - 96);
      sig.fill(0);
      sig[0] = first;
      sig[95] = last;
      return bytes;
    };
    /** avalanchejs parses the message it builds with, so a bad one goes in after (same size, same fee). */
    const setWeight = async (message: Uint8Array) => {
      const tx = pvm.newSetL1ValidatorWeightTx({ ...(await base()), message: fromManager(weight) }, ctx);
      (tx.getTx() as unknown as { message: Bytes }).message = new Bytes(message);
      return tx;
    };
    // Not a point's compressed x (checked, as there, after the signers' weight).
    await refuses(
      await setWeight(withSignature(0x80, 1)),
      "failed to parse signature: couldn't decompress signature",
      { envelope: WARP },
    );
    // A point on the curve outside the signature group.
    await refuses(await setWeight(withSignature(0x80, 2)), 'failed to parse signature: invalid signature', {
      envelope: WARP,
    });
    // The point at infinity parses (SigValidate(false)); it signs nothing.
    await refuses(await setWeight(withSignature(0xc0, 0)), 'signature is invalid', { envelope: WARP });
  });

  it('Warp messages, AddressedCalls and ACP-77 payloads that do not parse, in the codec words', async () => {
    const WARP = "couldn't issue tx: failed verification: failed verifying warp messages: ";
    const weight = weightPayload(l1ValidationId, 9n, 30n);
    /**
     * avalanchejs parses the message it builds with, so a bad one goes in after; the fee is paid
     * at twice the price, so a message of another size still pays for itself.
     */
    const setWeight = async (message: Uint8Array) => {
      const b = await base();
      const tx = pvm.newSetL1ValidatorWeightTx(
        { ...b, feeState: { ...b.feeState, price: 2n * b.feeState.price }, message: fromManager(weight) },
        ctx,
      );
      (tx.getTx() as unknown as { message: Bytes }).message = new Bytes(message);
      return tx;
    };
    const good = fromManager(weight);
    const n = good.length;
    const edit = (at: number, ...bytes: number[]) => {
      const m = Uint8Array.from(good);
      m.set(bytes, at);
      return m;
    };
    // The Warp message itself, refused by VerifyWarpMessages before the tx runs.
    await refuses(
      await setWeight(Uint8Array.from([...good, 0])),
      `trailing buffer space: read ${n} provided ${n + 1}`,
      {
        envelope: WARP,
      },
    );
    await refuses(await setWeight(good.subarray(0, n - 1)), 'packer has insufficient length for input', {
      envelope: WARP,
    });
    await refuses(await setWeight(edit(0, 0, 1)), 'unknown codec version', { envelope: WARP });
    // The signature's type id, after the 1-byte signers bitset's length and before the 96 bytes.
    await refuses(
      await setWeight(edit(n - 96 - 1 - 4 - 4, 0, 0, 0, 5)),
      "couldn't unmarshal interface: unknown type ID 5",
      {
        envelope: WARP,
      },
    );
    await refuses(
      await setWeight(Uint8Array.from([0, 0, 0, 0])),
      "couldn't unmarshal uint32: packer has insufficient length for input",
      {
        envelope: WARP,
      },
    );

    // A signed message whose payload does not parse: refused as the tx runs.
    const signed = (warpPayload: Uint8Array) =>
      signedWarpPayload(12345, l1Chain, warpPayload, [l1Key], new Uint8Array([1]));
    const call = (payload: Uint8Array, extra: number[] = []) => {
      const b = Buffer.alloc(2 + 4 + 4 + 20 + 4);
      b.writeUInt32BE(1, 2);
      b.writeUInt32BE(20, 6);
      Buffer.from(MANAGER).copy(b, 10);
      b.writeUInt32BE(payload.length, 30);
      return Uint8Array.from([...b, ...payload, ...extra]);
    };
    const hash = Uint8Array.from([0, 0, 0, 0, 0, 0, ...new Uint8Array(32).fill(3)]);
    await refuses(await setWeight(signed(hash)), 'wrong payload type: *payload.Hash');
    await refuses(
      await setWeight(signed(Uint8Array.from([0, 0, 0, 0, 0, 2]))),
      "couldn't unmarshal interface: unknown type ID 2",
    );
    const extra = call(weight, [7]);
    await refuses(
      await setWeight(signed(extra)),
      `trailing buffer space: read ${extra.length - 1} provided ${extra.length}`,
    );
    await refuses(
      await setWeight(signed(call(weight.subarray(0, weight.length - 1)))),
      "couldn't unmarshal uint64: packer has insufficient length for input",
    );
    await refuses(
      await setWeight(signed(call(Uint8Array.from([0, 0, 0, 0, 0, 9])))),
      "couldn't unmarshal interface: unknown type ID 9",
    );
    // Another ACP-77 payload, read to its end before its type is refused.
    const key = blsKey('rules-unparsed');
    const registration = registerPayload(l1, testNodeId(107), key, 1n, EWOQ_ADDR, 5n);
    await refuses(
      await setWeight(signed(call(registration))),
      'wrong payload type: *message.RegisterL1Validator',
    );
    const conversion = Uint8Array.from([0, 0, 0, 0, 0, 0, ...new Uint8Array(32)]);
    await refuses(
      await setWeight(signed(call(conversion))),
      'wrong payload type: *message.SubnetToL1Conversion',
    );
    const registered = Uint8Array.from([0, 0, 0, 0, 0, 2, ...new Uint8Array(32), 2]);
    await refuses(
      await setWeight(signed(call(registered))),
      "couldn't unmarshal bool: unexpected value when unpacking bool",
    );
  });

  it("Warp messages: the source chain's subnet, as GetSubnetID finds it", async () => {
    const WARP = "couldn't issue tx: failed verification: failed verifying warp messages: ";
    const weight = weightPayload(l1ValidationId, 9n, 30n);
    const setWeight = async (chain: string) =>
      pvm.newSetL1ValidatorWeightTx({ ...(await base()), message: fromManager(weight, { chain }) }, ctx);
    // A chain no tx created, though the payload names a validator of the L1 whose one validator
    // signed: the P-chain has no subnet for it.
    const nowhere = utils.base58check.encode(new Uint8Array(32).fill(0x5c));
    await refuses(await setWeight(nowhere), `problem retrieving blockchain "${nowhere}": not found`, {
      envelope: WARP,
    });
    // A tx that is not a CreateChainTx (the L1's CreateSubnetTx).
    await refuses(await setWeight(l1), `"${l1}" is not a blockchain`, { envelope: WARP });
    // The P-chain's own id: checked against the primary network's validators, not found.
    await refuses(await setWeight(PRIMARY), /^signature (is invalid|weight is insufficient: .*)$/, {
      envelope: WARP,
    });
  });

  it('SetL1ValidatorWeightTx, IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx', async () => {
    const setWeight = async (nonce: bigint, weight: bigint, validationId = l1ValidationId) =>
      pvm.newSetL1ValidatorWeightTx(
        { ...(await base()), message: fromManager(weightPayload(validationId, nonce, weight)) },
        ctx,
      );
    await refuses(
      await setWeight(0n, 0n),
      'attempting to remove the last L1 validator from a converted subnet',
    );
    await signAndIssue(api, await setWeight(0n, 20n));
    await refuses(await setWeight(0n, 30n), 'warp message contains stale nonce 0 must be at least 1');
    const unknown = utils.base58check.encode(new Uint8Array(32).fill(9));
    await refuses(await setWeight(5n, 30n, unknown), 'could not load L1 validator: not found');
    // Signed by a node outside the L1's set: too little weight, before the tx executes.
    const stranger = signedWarp(
      12345,
      l1Chain,
      MANAGER,
      weightPayload(l1ValidationId, 5n, 30n),
      [blsKey('rules-stranger')],
      new Uint8Array([2]),
    );
    await refuses(
      pvm.newSetL1ValidatorWeightTx({ ...(await base()), message: stranger }, ctx),
      'unknown validator: NumIndices (1) >= NumFilteredValidators (1)',
      { envelope: "couldn't issue tx: failed verification: failed verifying warp messages: " },
    );

    // Nor a zero increase (the builder refuses it): zero a built one's.
    const nothing = pvm.newIncreaseL1ValidatorBalanceTx(
      { ...(await base()), validationId: l1ValidationId, balance: 1n },
      ctx,
    );
    (nothing.getTx() as unknown as { balance: BigIntPr }).balance = new BigIntPr(0n);
    await refuses(nothing, 'balance must be greater than 0');
    await refuses(
      pvm.newIncreaseL1ValidatorBalanceTx({ ...(await base()), validationId: unknown, balance: AVAX }, ctx),
      'not found',
    );
    await refuses(
      pvm.newDisableL1ValidatorTx({ ...(await base()), validationId: unknown, disableAuth: [0] }, ctx),
      'could not load L1 validator: not found',
      { auth: true },
    );
    const disable = pvm.newDisableL1ValidatorTx(
      { ...(await base()), validationId: l1ValidationId, disableAuth: [0] },
      ctx,
    );
    await addTxSignatures({ unsignedTx: disable, privateKeys: [EWOQ_KEY] });
    await signAuth(disable, OTHER_KEY);
    await assert.rejects(api.issueSignedTx(disable.getSignedTx()), (err: Error) => {
      assert.equal(
        err.message,
        executionRefusal(
          disable,
          `unauthorized modification: wrong signature: expected signature from 6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV but got from ${utils.base58check.encode(OTHER_ADDR)}`,
        ),
      );
      return true;
    });
  });
});

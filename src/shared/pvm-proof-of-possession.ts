/**
 * avalanchejs checks a BLS proof of possession inside its PVM decoder, with a pure-JS pairing
 * (a tenth to a third of a second each here), so decoding a staking tx or an L1 validator
 * registration costs that much every time. Neither half of Flurry wants the check at decode time:
 * the node verifies every proof itself, with blst, when it verifies a tx (platformvm
 * txs/base-checks.ts), and the data platform reads txs a node has already accepted. Importing this
 * module replaces the decoder of avalanchejs's ProofOfPossession, in this process, by one that
 * only reads the two fields.
 */
import { pvmSerial } from '@avalabs/avalanchejs';

const PopClass = pvmSerial.ProofOfPossession as unknown as {
  prototype: object;
  fromBytes(bytes: Uint8Array): [pvmSerial.ProofOfPossession, Uint8Array];
};
const POP_TYPE = 'pvm.proofOfPossession';
const BLS_PUBLIC_KEY_LENGTH = 48;
const BLS_SIGNATURE_LENGTH = 96;

/** A ProofOfPossession value without the decode-time pairing check (see above). */
export function uncheckedProofOfPossession(
  publicKey: Uint8Array,
  signature: Uint8Array,
): pvmSerial.ProofOfPossession {
  const pop = Object.create(PopClass.prototype) as Record<string, unknown>;
  pop._type = POP_TYPE;
  pop.publicKey = publicKey;
  pop.signature = signature;
  return pop as unknown as pvmSerial.ProofOfPossession;
}

PopClass.fromBytes = (bytes: Uint8Array) => {
  if (bytes.length < BLS_PUBLIC_KEY_LENGTH + BLS_SIGNATURE_LENGTH)
    throw new Error('proof of possession: unexpected end of bytes');
  return [
    uncheckedProofOfPossession(
      bytes.slice(0, BLS_PUBLIC_KEY_LENGTH),
      bytes.slice(BLS_PUBLIC_KEY_LENGTH, BLS_PUBLIC_KEY_LENGTH + BLS_SIGNATURE_LENGTH),
    ),
    bytes.slice(BLS_PUBLIC_KEY_LENGTH + BLS_SIGNATURE_LENGTH),
  ];
};

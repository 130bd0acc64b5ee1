/**
 * The genesis validators as peers: each one answers Warp signature requests (ACP-118's
 * SignatureRequest → SignatureResponse, carried as JSON-RPC over HTTP since the devnet has no
 * Avalanche P2P network) at its own address, announced in `info.peers`. A devnet-only control
 * can make a validator offline, slow, refuse, or answer with a wrong signature, so aggregation
 * under faults can be tested.
 */
import type { Logger } from '../../shared/logger.js';
import { blsSign } from '../../shared/crypto/bls.js';
import { plainHex } from '../../shared/encoding.js';
import type { GenesisValidator } from '../genesis/genesis.js';
import { AvalancheEndpoint } from '../rpc/avalanche-endpoint.js';
import { fail } from '../rpc/errors.js';
import { NodeHttpServer, Router } from '../rpc/http-server.js';
import type { Params } from '../rpc/params.js';
import type { WarpSigner } from './warp-signer.js';
import { joinHostPort } from '../../shared/host-port.js';

export type ValidatorFault = 'none' | 'offline' | 'slow' | 'refuse' | 'wrong-signature';
export const VALIDATOR_FAULTS: readonly ValidatorFault[] = [
  'none',
  'offline',
  'slow',
  'refuse',
  'wrong-signature',
];

interface FaultState {
  fault: ValidatorFault;
  delayMs: number;
}

/** Decodes the hex the aggregators send (with or without `0x`, no checksum). */
export function decodeHexParam(text: string, what: string): Uint8Array {
  const body = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) fail(`${what} is not valid hex`);
  return Uint8Array.from(Buffer.from(body, 'hex'));
}

/** `acp118.signatureRequest {message, justification}` → `{signature}` for one validator. */
export function createSignatureEndpoint(
  validator: GenesisValidator,
  signer: WarpSigner,
  faults: () => FaultState,
): AvalancheEndpoint {
  return new AvalancheEndpoint(`acp118/${validator.nodeID}`).registerAll('acp118', {
    signatureRequest: async (params: Params) => {
      const state = faults();
      if (state.fault === 'slow') await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.fault === 'refuse') fail('validator refuses to sign (devnet fault)');
      const message = decodeHexParam(params.string('message'), 'message');
      const justification = decodeHexParam(params.string('justification'), 'justification');
      if (message.length === 0) fail('no message provided');
      const signature = await signer
        .sign(validator.blsSecretKey, message, justification)
        .catch((err: Error) => fail(err.message));
      if (state.fault === 'wrong-signature') {
        // A well-formed signature over other bytes: it parses but does not verify.
        const other = Uint8Array.from(message);
        other[other.length - 1] ^= 0xff;
        return { signature: plainHex(blsSign(validator.blsSecretKey, other)) };
      }
      return { signature: plainHex(signature) };
    },
  });
}

export class ValidatorPeers {
  private readonly servers = new Map<string, { server: NodeHttpServer; port: number; online: boolean }>();
  private readonly faults = new Map<string, FaultState>();

  constructor(
    private readonly validators: readonly GenesisValidator[],
    private readonly signer: WarpSigner,
    private readonly host: string,
    private readonly logger: Logger,
  ) {
    for (const v of validators) this.faults.set(v.nodeID, { fault: 'none', delayMs: 0 });
  }

  nodeIDs(): string[] {
    return this.validators.map((v) => v.nodeID);
  }

  faultOf(nodeID: string): FaultState {
    return this.faults.get(nodeID) ?? { fault: 'none', delayMs: 0 };
  }

  /** The signature endpoint of one validator (also mounted on the node's own port for itself). */
  endpointFor(validator: GenesisValidator): AvalancheEndpoint {
    return createSignatureEndpoint(validator, this.signer, () => this.faultOf(validator.nodeID));
  }

  /** Starts one HTTP server per validator (except `skip`, served by the node's own port). */
  async start(skip: string): Promise<void> {
    for (const v of this.validators) {
      if (v.nodeID === skip) continue;
      await this.listen(v, 0);
    }
  }

  private async listen(v: GenesisValidator, port: number): Promise<void> {
    const router = new Router();
    router.mount('/ext/acp118', { kind: 'avalanche', endpoint: this.endpointFor(v) });
    router.mount('/ext/info', {
      kind: 'avalanche',
      endpoint: new AvalancheEndpoint('peer-info').registerAll('info', {
        getNodeID: () => ({
          nodeID: v.nodeID,
          nodePOP: {
            publicKey: plainHex(v.blsPublicKey),
            proofOfPossession: plainHex(v.blsProofOfPossession),
          },
        }),
      }),
    });
    const server = new NodeHttpServer({ router, nodeId: v.nodeID, host: this.host, port });
    const bound = await server.listen();
    this.servers.set(v.nodeID, { server, port: bound, online: true });
  }

  /** Address of a validator's peer server (`host:port`), if it has one. */
  addressOf(nodeID: string): string | undefined {
    const s = this.servers.get(nodeID);
    return s ? joinHostPort(this.host, s.port) : undefined;
  }

  async setFault(nodeID: string, fault: ValidatorFault, delayMs: number): Promise<void> {
    const v = this.validators.find((x) => x.nodeID === nodeID);
    if (!v) fail(`${nodeID} is not a genesis validator of this devnet`);
    this.faults.set(nodeID, { fault, delayMs });
    const entry = this.servers.get(nodeID);
    if (!entry) return; // the node's own validator: faults apply to its endpoint on the main port
    if (fault === 'offline' && entry.online) {
      await entry.server.close();
      entry.online = false;
    } else if (fault !== 'offline' && !entry.online) {
      await this.listen(v, entry.port);
    }
    this.logger.info({ node_id: nodeID, fault, delay_ms: delayMs }, 'validator fault set');
  }

  async close(): Promise<void> {
    for (const entry of this.servers.values()) if (entry.online) await entry.server.close();
    this.servers.clear();
  }
}

/** `/ext/devnet`: devnet-only controls (validator faults). */
export function createDevnetEndpoint(peers: ValidatorPeers): AvalancheEndpoint {
  return new AvalancheEndpoint('devnet').registerAll('devnet', {
    setValidatorFault: async (params) => {
      const nodeID = params.string('nodeID');
      const fault = (params.optionalString('fault') ?? 'none') as ValidatorFault;
      if (!VALIDATOR_FAULTS.includes(fault)) fail(`fault must be one of ${VALIDATOR_FAULTS.join(', ')}`);
      const delayMs = Number(params.uint64('delayMs', 2000n));
      await peers.setFault(nodeID, fault, delayMs);
      return { nodeID, fault, delayMs };
    },
    getValidatorFaults: () => ({
      faults: Object.fromEntries(peers.nodeIDs().map((id) => [id, peers.faultOf(id)])),
    }),
  });
}

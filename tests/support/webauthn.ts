/**
 * A software WebAuthn authenticator for API tests: a P-256 key pair from node:crypto per
 * credential, answers built as a platform authenticator builds them (authenticator data, CBOR
 * attestation object with `fmt: none`, client data JSON) and signed for real (ECDSA over
 * authenticatorData ‖ SHA-256(clientDataJSON)). No part of the server's check is skipped.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key. */
function cbor(v: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  if (v instanceof Map) return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
  if (v && typeof v === 'object') return cbor(new Map(Object.entries(v)));
  throw new Error(`cbor: ${typeof v}`);
}

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Buffer;
  userHandle: string;
  counter: number;
}

export interface AnswerOpts {
  /** Override what the client data says (a wrong origin, a wrong challenge). */
  origin?: string;
  challenge?: string;
  /** User verification flag (default on, as a platform authenticator with a PIN or biometrics). */
  uv?: boolean;
  /** The RP ID hashed into the authenticator data (default: the origin's host name). */
  rpId?: string;
}

function authData(rpId: string, flags: number, counter: number, attested?: { id: Buffer; cose: Buffer }): Buffer {
  const c = Buffer.alloc(4);
  c.writeUInt32BE(counter);
  const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), c];
  if (attested) {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(attested.id.length);
    parts.push(Buffer.alloc(16), len, attested.id, attested.cose);
  }
  return Buffer.concat(parts);
}

const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin: string) {}

  /** navigator.credentials.create(): a new resident credential for these options. */
  register(options: { challenge: string; user: { id: string } }, opts: AnswerOpts = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const cred: SoftCredential = { id: randomBytes(16), privateKey, cose, userHandle: options.user.id, counter: 0 };
    this.credentials.push(cred);
    const origin = opts.origin ?? this.origin;
    const rpId = opts.rpId ?? new URL(this.origin).hostname;
    const data = authData(rpId, 0x01 | (opts.uv === false ? 0 : 0x04) | 0x40, cred.counter, { id: cred.id, cose });
    const attestationObject = cbor({ fmt: 'none', attStmt: new Map(), authData: data });
    return {
      id: b64url(cred.id),
      rawId: b64url(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', opts.challenge ?? options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an assertion by `cred` (default: the newest) for these options. */
  assert(options: { challenge: string }, cred: SoftCredential = this.credentials[this.credentials.length - 1], opts: AnswerOpts = {}) {
    cred.counter += 1;
    const origin = opts.origin ?? this.origin;
    const rpId = opts.rpId ?? new URL(this.origin).hostname;
    const data = authData(rpId, 0x01 | (opts.uv === false ? 0 : 0x04), cred.counter);
    const cd = clientData('webauthn.get', opts.challenge ?? options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([data, sha256(cd)]), cred.privateKey);
    return {
      id: b64url(cred.id),
      rawId: b64url(cred.id),
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(cd), authenticatorData: b64url(data), signature: b64url(signature), userHandle: cred.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

/**
 * The secrets' hash (api/src/auth/session.ts) is SHA-256 as before it moved to Node's own hash:
 * sessions and API tokens stored with the earlier hash still check.
 */
import { describe, expect, it } from 'vitest';
import { sha256 } from '@oslojs/crypto/sha2';
import { hashSecret } from '../src/auth/session.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('hashSecret', () => {
  it("is SHA-256 of the secret's UTF-8, the digest the stored sessions and tokens were made with", () => {
    expect(hex(hashSecret('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const secret of ['', 'x5ny4k9bq2m7wz3c8d6f1h0jr4t5v7a9', 'ünïcødé ✓', 'a'.repeat(1000)]) {
      expect(hashSecret(secret)).toEqual(sha256(new TextEncoder().encode(secret)));
    }
  });
});

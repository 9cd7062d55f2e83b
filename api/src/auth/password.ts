/**
 * Password hashing: argon2id with OWASP's minimum parameters (19 MiB, 2 iterations, 1 lane).
 * `@node-rs/argon2` runs the work off the event loop.
 */
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

/** `Algorithm.Argon2id`: an ambient const enum, which `isolatedModules` cannot read, so its value. */
const ARGON2ID = 2 as Algorithm;

const PASSWORD_HASH_OPTIONS: Options = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

let argon2Runs = 0;

/**
 * How many argon2id hashes and verifications this process has started. Sign-in throttling is
 * checked before any (a locked attempt costs no hashing); the tests hold it to that.
 */
export function argon2RunCount(): number {
  return argon2Runs;
}

export function hashPassword(password: string): Promise<string> {
  argon2Runs += 1;
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** False for a wrong password and for a stored hash that cannot be read. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  argon2Runs += 1;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real verification, for sign-ins with an unknown email (or an account
 * without a password), so response times do not reveal which emails have accounts.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword('marketcraft-dummy-password-never-matches');
  await verifyPassword(await dummyHash, password);
  return false;
}

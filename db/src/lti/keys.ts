/**
 * The tool's own RSA signing key (LTI 1.3 tools sign client assertions and deep-linking answers).
 * Generated once per deployment on first use and kept in PostgreSQL (the one store), rotated by
 * `npm run admin -- lti-rotate-key`; the JWKS serves the current key and the retired ones of the
 * last week, so platforms that cached the old key still verify. Never logged.
 */
import { desc, gt, isNull, or, sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { DbExecutor } from '../client.ts';
import { ltiToolKeys } from '../schema/index.ts';

export const LTI_KEY_ALGORITHM = 'RS256';
/** How long a retired key stays in the JWKS (platforms cache JWKS for hours). */
const RETIRED_KEY_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** Whatever the pool, one generation at a time: two first launches must not make two keys. */
const KEY_GENERATION_LOCK = 0x4c5449; // "LTI"

async function newKeyRow() {
  const { publicKey, privateKey } = await generateKeyPair(LTI_KEY_ALGORITHM, { modulusLength: 2048, extractable: true });
  const kid = crypto.randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: LTI_KEY_ALGORITHM, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: LTI_KEY_ALGORITHM };
  return { kid, publicJwk, privateJwk };
}

/** The current signing key, generated on first use. */
export async function currentToolKey(db: DbExecutor): Promise<{ kid: string; key: CryptoKey }> {
  let [row] = await db.select().from(ltiToolKeys).where(isNull(ltiToolKeys.retiredAt)).orderBy(desc(ltiToolKeys.createdAt)).limit(1);
  if (!row) {
    row = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${KEY_GENERATION_LOCK})`);
      const [existing] = await tx.select().from(ltiToolKeys).where(isNull(ltiToolKeys.retiredAt)).limit(1);
      if (existing) return existing;
      const [inserted] = await tx
        .insert(ltiToolKeys)
        .values(await newKeyRow())
        .returning();
      return inserted!;
    });
  }
  const key = (await importJWK(row.privateJwk as JWK, LTI_KEY_ALGORITHM)) as CryptoKey;
  return { kid: row.kid, key };
}

/** `lti-rotate-key`: a new signing key; the old one is retired (still in the JWKS for a week). Answers the new kid. */
export async function rotateToolKey(db: DbExecutor): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${KEY_GENERATION_LOCK})`);
    await tx.update(ltiToolKeys).set({ retiredAt: new Date() }).where(isNull(ltiToolKeys.retiredAt));
    const row = await newKeyRow();
    await tx.insert(ltiToolKeys).values(row);
    return row.kid;
  });
}

/** GET /api/lti/jwks: the public keys (current first), generating the first key if there is none. */
export async function toolJwks(db: DbExecutor, now = new Date()): Promise<{ keys: Record<string, unknown>[] }> {
  await currentToolKey(db);
  const rows = await db
    .select({ publicJwk: ltiToolKeys.publicJwk })
    .from(ltiToolKeys)
    .where(or(isNull(ltiToolKeys.retiredAt), gt(ltiToolKeys.retiredAt, new Date(now.getTime() - RETIRED_KEY_GRACE_MS))))
    .orderBy(sql`${ltiToolKeys.retiredAt} desc nulls first`);
  return { keys: rows.map((row) => row.publicJwk) };
}

/**
 * Deterministic randomness for the turn: a generator seeded by (world seed, week), so replaying a
 * turn on the same state gives the same result. mulberry32 is a small, well-known 32-bit PRNG.
 */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from the world seed and the week (FNV-1a over both numbers' decimal text). */
function turnSeed(worldSeed: number, week: number): number {
  const text = `${worldSeed}:${week}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The turn's generator: the same (seed, week) always yields the same sequence. */
export function turnRng(worldSeed: number, week: number): Rng {
  return mulberry32(turnSeed(worldSeed, week));
}

/** An integer in [min, max] from the generator. */
export function randomInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

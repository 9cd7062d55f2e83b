/**
 * Whether an If-None-Match header names this ETag: the weak comparison RFC 9110 (13.1.2) asks for
 * If-None-Match (`W/` ignored on both sides); `*` matches any. Used by the kept answers of GET
 * routes (rest.ts) and by the open data files (dataFiles.ts).
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === opaque);
}

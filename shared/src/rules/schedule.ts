/** The next 00:30 or 12:30 UTC strictly after `now` (spec: automatic turns at 00:30 and 12:30 UTC). */
export function nextScheduledTurnAt(now: Date): Date {
  const candidate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 0, 30, 0, 0));
  while (candidate.getTime() <= now.getTime()) {
    candidate.setUTCHours(candidate.getUTCHours() + 12);
  }
  return candidate;
}

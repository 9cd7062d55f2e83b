/**
 * The shape of a player action (the structure issue): one function takes a list of requests and
 * answers one outcome per request, in order: applied with its result, or refused with a GameError.
 * The API sends a list of one, the bots many; the writes inside are set-based.
 */
import { GameError } from '@marketcraft/shared';

export interface ActionRequest<I> {
  companyId: number;
  /** The player who acts (null: a bot or the turn). */
  actingUserId: number | null;
  input: I;
}

export type Outcome<R> = { ok: true; result: R } | { ok: false; error: GameError };

/** The result of a list of one: its result, or its refusal thrown (the API's way). */
export function onlyResult<R>(outcomes: readonly Outcome<R>[]): R {
  const [outcome] = outcomes;
  if (!outcome) throw new Error('an action answered no outcome');
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

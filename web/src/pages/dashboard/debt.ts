/**
 * The dashboard's bankruptcy warning (docs/economy.md, 9. Bankruptcy): a company that ends
 * `bankruptcy_turns` turns in a row with negative cash goes bankrupt; `negative_turns` (GET
 * /api/company) counts the turns so far. Only a turn ending with cash of $0 or more resets the
 * count, so it still matters after the cash is back above zero.
 */
export interface DebtWarning {
  /** red: cash is negative now; yellow: cash is back above zero but the count is not reset yet. */
  tone: 'red' | 'yellow';
  title: string;
  /** "2 of 4 turns in debt" */
  count: string;
  message: string;
}

/** "One more turn" / "2 more turns". */
const moreTurns = (count: number) => (count === 1 ? 'One more turn' : `${count} more turns`);

export function debtWarning(company: { cash: number; negative_turns: number; bankruptcy_turns: number }): DebtWarning | null {
  const { cash, negative_turns: counted, bankruptcy_turns: limit } = company;
  const count = `${counted} of ${limit} turns in debt`;
  if (cash < 0) {
    const left = Math.max(1, limit - counted);
    return {
      tone: 'red',
      title: 'Your cash is negative',
      count,
      message:
        `${moreTurns(left)} ending with negative cash and your company goes bankrupt. ` +
        'Wages and operating costs are still charged every turn: sell goods, shares or buildings to get back above zero.',
    };
  }
  if (counted > 0) {
    return {
      tone: 'yellow',
      title: 'Back above zero',
      count,
      message: 'End the next turn with cash of $0 or more to reset the count: wages and operating costs are charged before it ends.',
    };
  }
  return null;
}

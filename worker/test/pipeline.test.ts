/** Which of the turn's statements are sent without waiting for their answer (worker/src/turn/pipeline.ts). */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { answerUnread } from '../src/turn/pipeline.ts';

describe('the turn pipelines its writes', () => {
  it('sends writes and settings without waiting, whatever fragments they hold', () => {
    const fragment = sql`select company_id from turn_companies where cash_cents > ${0}`;
    expect(answerUnread(sql`create temp table turn_x on commit drop as ${fragment}`)).toBe(true);
    expect(answerUnread(sql`  insert into turn_cash (company_id) select company_id from (${fragment}) f`)).toBe(true);
    expect(answerUnread(sql`update companies set cash_cents = ${1} where id = ${2}`)).toBe(true);
    expect(answerUnread(sql`set local enable_nestloop = off`)).toBe(true);
    expect(answerUnread(sql`alter table turn_x add primary key (company_id)`)).toBe(true);
  });

  it('waits for anything the turn reads: selects, and writes with RETURNING (also in a fragment)', () => {
    expect(answerUnread(sql`select id from products order by id`)).toBe(false);
    expect(answerUnread(sql`with x as (select 1) insert into t select * from x`)).toBe(false);
    expect(answerUnread(sql`insert into turns (world_id, week) values (${1}, ${2}) on conflict do nothing returning week`)).toBe(false);
    expect(answerUnread(sql`update companies set status = 'bankrupt' where id in (${sql`select 1`}) ${sql`returning id`}`)).toBe(false);
    // A value that merely contains the word is a parameter, not the statement's text.
    expect(answerUnread(sql`insert into news (text) values (${'returning soon'})`)).toBe(true);
  });
});

/** What the web's history screens read: product prices per week (the market's charts and sparklines). */
import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { products } from './world.ts';

/** A product's posted price during a week (recorded by the turn that ends the week). */
export const productPriceHistory = pgTable(
  'product_price_history',
  {
    productId: integer()
      .notNull()
      .references(() => products.id),
    week: integer().notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
  },
  // Read by product (a product's history, each product's recent weeks): the key serves both.
  (t) => [primaryKey({ columns: [t.productId, t.week] }), check('product_price_history_price', sql`${t.priceCents} > 0`)],
);

-- The exchange between players (docs/exchange.md): limit orders in the weekly call auction, each
-- auction's clearing, each order's fills, and contracts between companies.
CREATE TABLE "exchange_orders" (
	"world_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "exchange_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"side" text NOT NULL,
	"quantity" bigint NOT NULL,
	"filled_quantity" bigint DEFAULT 0 NOT NULL,
	"limit_price_cents" bigint NOT NULL,
	"escrow_cents" bigint DEFAULT 0 NOT NULL,
	"escrow_units" bigint DEFAULT 0 NOT NULL,
	"escrow_cost_cents" bigint DEFAULT 0 NOT NULL,
	"filled_value_cents" bigint DEFAULT 0 NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"week_placed" integer NOT NULL,
	"expires_week" integer NOT NULL,
	"closed_week" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_orders_world_id_id_pk" PRIMARY KEY("world_id","id"),
	CONSTRAINT "exchange_orders_side" CHECK ("exchange_orders"."side" in ('buy', 'sell')),
	CONSTRAINT "exchange_orders_status" CHECK ("exchange_orders"."status" in ('open', 'partially_filled', 'filled', 'cancelled', 'expired')),
	CONSTRAINT "exchange_orders_quantity" CHECK ("exchange_orders"."quantity" > 0 and "exchange_orders"."filled_quantity" between 0 and "exchange_orders"."quantity"),
	CONSTRAINT "exchange_orders_limit" CHECK ("exchange_orders"."limit_price_cents" > 0),
	CONSTRAINT "exchange_orders_escrow" CHECK ("exchange_orders"."escrow_cents" >= 0 and "exchange_orders"."escrow_units" >= 0 and ("exchange_orders"."side" = 'buy' or "exchange_orders"."escrow_cents" = 0) and ("exchange_orders"."side" = 'sell' or "exchange_orders"."escrow_units" = 0)),
	CONSTRAINT "exchange_orders_weeks" CHECK ("exchange_orders"."expires_week" >= "exchange_orders"."week_placed")
);
--> statement-breakpoint
CREATE TABLE "exchange_auctions" (
	"world_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"week" integer NOT NULL,
	"price_cents" bigint,
	"volume" bigint NOT NULL,
	"players_volume" bigint NOT NULL,
	"maker_bought" bigint NOT NULL,
	"maker_sold" bigint NOT NULL,
	"bids" jsonb NOT NULL,
	"asks" jsonb NOT NULL,
	CONSTRAINT "exchange_auctions_world_id_product_id_week_pk" PRIMARY KEY("world_id","product_id","week")
);
--> statement-breakpoint
CREATE TABLE "exchange_fills" (
	"world_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"week" integer NOT NULL,
	"company_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"side" text NOT NULL,
	"quantity" bigint NOT NULL,
	"price_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	CONSTRAINT "exchange_fills_world_id_order_id_week_pk" PRIMARY KEY("world_id","order_id","week")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"world_id" integer NOT NULL,
	"id" integer GENERATED ALWAYS AS IDENTITY (sequence name "contracts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"seller_company_id" integer NOT NULL,
	"buyer_company_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"escrow_cost_cents" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"week_offered" integer NOT NULL,
	"expires_week" integer NOT NULL,
	"closed_week" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contracts_world_id_id_pk" PRIMARY KEY("world_id","id"),
	CONSTRAINT "contracts_status" CHECK ("contracts"."status" in ('open', 'accepted', 'declined', 'cancelled', 'expired')),
	CONSTRAINT "contracts_quantity" CHECK ("contracts"."quantity" > 0),
	CONSTRAINT "contracts_price" CHECK ("contracts"."unit_price_cents" > 0),
	CONSTRAINT "contracts_not_self" CHECK ("contracts"."seller_company_id" <> "contracts"."buyer_company_id"),
	CONSTRAINT "contracts_weeks" CHECK ("contracts"."expires_week" >= "contracts"."week_offered")
);
--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_company_fk" FOREIGN KEY ("world_id","company_id") REFERENCES "public"."companies"("world_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_world_id_worlds_id_fk" FOREIGN KEY ("world_id") REFERENCES "public"."worlds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_seller_fk" FOREIGN KEY ("world_id","seller_company_id") REFERENCES "public"."companies"("world_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_buyer_fk" FOREIGN KEY ("world_id","buyer_company_id") REFERENCES "public"."companies"("world_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Live orders only: the auction and the books read them, and closed orders pile up week after week.
CREATE INDEX "exchange_orders_live_idx" ON "exchange_orders" USING btree ("world_id","product_id") WHERE "exchange_orders"."status" in ('open', 'partially_filled');--> statement-breakpoint
CREATE INDEX "exchange_orders_company_idx" ON "exchange_orders" USING btree ("world_id","company_id");--> statement-breakpoint
CREATE INDEX "exchange_fills_company_idx" ON "exchange_fills" USING btree ("world_id","company_id","week");--> statement-breakpoint
CREATE INDEX "contracts_buyer_idx" ON "contracts" USING btree ("world_id","buyer_company_id","status");--> statement-breakpoint
CREATE INDEX "contracts_seller_idx" ON "contracts" USING btree ("world_id","seller_company_id","status");

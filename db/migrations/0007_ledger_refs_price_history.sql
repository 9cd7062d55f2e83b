CREATE TABLE "product_price_history" (
	"product_id" integer NOT NULL,
	"week" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	CONSTRAINT "product_price_history_product_id_week_pk" PRIMARY KEY("product_id","week"),
	CONSTRAINT "product_price_history_price" CHECK ("product_price_history"."price_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "building_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "product_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "counterparty_company_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "country_id" integer;--> statement-breakpoint
ALTER TABLE "product_price_history" ADD CONSTRAINT "product_price_history_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;
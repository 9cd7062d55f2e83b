CREATE TABLE "auth_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_accounts" (
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_accounts_provider_provider_user_id_pk" PRIMARY KEY("provider","provider_user_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" "bytea" NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_verified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"password_hash" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "building_types" (
	"type" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"construction_cost_cents" bigint NOT NULL,
	"base_capacity" integer NOT NULL,
	"weekly_operating_cost_cents" bigint NOT NULL,
	CONSTRAINT "building_types_category" CHECK ("building_types"."category" in ('extraction', 'processing', 'manufacturing', 'specialty', 'retail')),
	CONSTRAINT "building_types_costs" CHECK ("building_types"."construction_cost_cents" > 0 and "building_types"."weekly_operating_cost_cents" >= 0 and "building_types"."base_capacity" > 0)
);
--> statement-breakpoint
CREATE TABLE "cities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"country_id" integer NOT NULL,
	"bonus_type" text NOT NULL,
	"bonus_value" integer NOT NULL,
	"population" integer NOT NULL,
	CONSTRAINT "cities_name_unique" UNIQUE("name"),
	CONSTRAINT "cities_bonus_type" CHECK ("cities"."bonus_type" in ('agricultural', 'mining', 'extraction', 'forestry', 'milling', 'industrial', 'food_production', 'manufacturing', 'baking', 'brewing', 'beverage', 'luxury', 'retail')),
	CONSTRAINT "cities_bonus_value_range" CHECK ("cities"."bonus_value" between 0 and 100),
	CONSTRAINT "cities_population_positive" CHECK ("cities"."population" > 0)
);
--> statement-breakpoint
CREATE TABLE "city_market_data" (
	"city_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"demand_level" integer NOT NULL,
	"base_demand_level" integer NOT NULL,
	"market_price_cents" bigint NOT NULL,
	CONSTRAINT "city_market_data_city_id_product_id_pk" PRIMARY KEY("city_id","product_id"),
	CONSTRAINT "city_market_data_demand_range" CHECK ("city_market_data"."demand_level" between 0 and 100 and "city_market_data"."base_demand_level" between 0 and 100),
	CONSTRAINT "city_market_data_price_positive" CHECK ("city_market_data"."market_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "countries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"tax_rate" integer NOT NULL,
	"base_tax_rate" integer NOT NULL,
	CONSTRAINT "countries_name_unique" UNIQUE("name"),
	CONSTRAINT "countries_tax_rate_range" CHECK ("countries"."tax_rate" between 0 and 100 and "countries"."base_tax_rate" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"category" text NOT NULL,
	"subcategory" text NOT NULL,
	"base_price_cents" bigint NOT NULL,
	"current_price_cents" bigint NOT NULL,
	CONSTRAINT "products_name_unique" UNIQUE("name"),
	CONSTRAINT "products_category" CHECK ("products"."category" in ('Raw Materials', 'Agricultural', 'Processed Materials', 'Food Products', 'Industrial Goods', 'Consumer Goods', 'Luxury Goods')),
	CONSTRAINT "products_prices_positive" CHECK ("products"."base_price_cents" > 0 and "products"."current_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "recipe_inputs" (
	"recipe_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "recipe_inputs_recipe_id_product_id_pk" PRIMARY KEY("recipe_id","product_id"),
	CONSTRAINT "recipe_inputs_quantity_positive" CHECK ("recipe_inputs"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "recipes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recipes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"building_type" text NOT NULL,
	"output_product_id" integer NOT NULL,
	"output_quantity" integer NOT NULL,
	CONSTRAINT "recipes_output_quantity_positive" CHECK ("recipes"."output_quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "research_upgrades" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "research_upgrades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"tier" integer NOT NULL,
	"research_cost_cents" bigint NOT NULL,
	"prerequisite_id" integer,
	"building_type" text,
	"effects" jsonb NOT NULL,
	CONSTRAINT "research_upgrades_name_unique" UNIQUE("name"),
	CONSTRAINT "research_upgrades_category" CHECK ("research_upgrades"."category" in ('productivity', 'efficiency', 'unlock', 'automation')),
	CONSTRAINT "research_upgrades_tier_range" CHECK ("research_upgrades"."tier" between 1 and 5),
	CONSTRAINT "research_upgrades_cost_positive" CHECK ("research_upgrades"."research_cost_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"week" integer PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"phase_timings" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "world" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"current_week" integer DEFAULT 1 NOT NULL,
	"last_turn_at" timestamp with time zone,
	"next_turn_at" timestamp with time zone,
	"seed" bigint DEFAULT 20261121 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "world_single_row" CHECK ("world"."id" = 1),
	CONSTRAINT "world_week_positive" CHECK ("world"."current_week" >= 1)
);
--> statement-breakpoint
CREATE TABLE "building_inventory_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "building_inventory_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"building_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"purchase_price_cents" bigint NOT NULL,
	CONSTRAINT "building_inventory_items_quantity" CHECK ("building_inventory_items"."quantity" >= 0),
	CONSTRAINT "building_inventory_items_price" CHECK ("building_inventory_items"."purchase_price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "buildings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "buildings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"city_id" integer NOT NULL,
	"employees" integer DEFAULT 1 NOT NULL,
	"equipment_level" integer DEFAULT 1 NOT NULL,
	"production_rate" integer DEFAULT 100 NOT NULL,
	"automation_level" integer DEFAULT 0 NOT NULL,
	"efficiency_bonus" integer DEFAULT 0 NOT NULL,
	"selected_recipe_id" integer,
	"selected_category" text,
	"construction_cost_cents" bigint NOT NULL,
	"built_week" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buildings_employees" CHECK ("buildings"."employees" >= 0),
	CONSTRAINT "buildings_equipment_level" CHECK ("buildings"."equipment_level" between 1 and 5),
	CONSTRAINT "buildings_production_rate" CHECK ("buildings"."production_rate" between 10 and 200),
	CONSTRAINT "buildings_automation_level" CHECK ("buildings"."automation_level" >= 0)
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "companies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"name" text NOT NULL,
	"bio" text,
	"cash_cents" bigint NOT NULL,
	"starting_cash_cents" bigint NOT NULL,
	"founded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_bot" boolean DEFAULT false NOT NULL,
	"strategy" text,
	"status" text DEFAULT 'active' NOT NULL,
	"negative_cash_turns" integer DEFAULT 0 NOT NULL,
	"bankrupt_at" timestamp with time zone,
	CONSTRAINT "companies_status" CHECK ("companies"."status" in ('active', 'bankrupt')),
	CONSTRAINT "companies_bot_strategy" CHECK (("companies"."is_bot" and "companies"."strategy" is not null) or (not "companies"."is_bot" and "companies"."strategy" is null)),
	CONSTRAINT "companies_name_not_empty" CHECK (length(trim("companies"."name")) > 0),
	CONSTRAINT "companies_bio_length" CHECK ("companies"."bio" is null or length("companies"."bio") <= 500),
	CONSTRAINT "companies_negative_turns" CHECK ("companies"."negative_cash_turns" >= 0)
);
--> statement-breakpoint
CREATE TABLE "company_research" (
	"company_id" integer NOT NULL,
	"upgrade_id" integer NOT NULL,
	"researched_week" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_research_company_id_upgrade_id_pk" PRIMARY KEY("company_id","upgrade_id")
);
--> statement-breakpoint
CREATE TABLE "financial_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "financial_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"week" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"cash_after_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "influence_records" (
	"company_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	"influence_points" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "influence_records_company_id_country_id_pk" PRIMARY KEY("company_id","country_id"),
	CONSTRAINT "influence_records_points" CHECK ("influence_records"."influence_points" >= 0)
);
--> statement-breakpoint
CREATE TABLE "inventory_items" (
	"company_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"average_cost_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "inventory_items_company_id_product_id_pk" PRIMARY KEY("company_id","product_id"),
	CONSTRAINT "inventory_items_quantity" CHECK ("inventory_items"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "market_activity" (
	"week" integer NOT NULL,
	"product_id" integer NOT NULL,
	"units_bought" bigint DEFAULT 0 NOT NULL,
	"units_sold" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "market_activity_week_product_id_pk" PRIMARY KEY("week","product_id"),
	CONSTRAINT "market_activity_units" CHECK ("market_activity"."units_bought" >= 0 and "market_activity"."units_sold" >= 0)
);
--> statement-breakpoint
CREATE TABLE "political_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "political_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"country_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"description" text NOT NULL,
	"effect_value" integer DEFAULT 0 NOT NULL,
	"beneficiary_company_id" integer,
	"started_week" integer NOT NULL,
	"active_until_week" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "political_events_type" CHECK ("political_events"."event_type" in ('tax_cut', 'tax_increase', 'subsidy', 'election')),
	CONSTRAINT "political_events_weeks" CHECK ("political_events"."active_until_week" >= "political_events"."started_week")
);
--> statement-breakpoint
CREATE TABLE "portfolio_entries" (
	"holder_company_id" integer NOT NULL,
	"issuer_company_id" integer NOT NULL,
	"shares_owned" bigint NOT NULL,
	"average_price_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "portfolio_entries_holder_company_id_issuer_company_id_pk" PRIMARY KEY("holder_company_id","issuer_company_id"),
	CONSTRAINT "portfolio_entries_shares" CHECK ("portfolio_entries"."shares_owned" >= 0),
	CONSTRAINT "portfolio_entries_not_self" CHECK ("portfolio_entries"."holder_company_id" <> "portfolio_entries"."issuer_company_id")
);
--> statement-breakpoint
CREATE TABLE "share_records" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"total_shares" bigint DEFAULT 100 NOT NULL,
	"share_price_cents" bigint DEFAULT 10000 NOT NULL,
	"last_dividend_cents" bigint DEFAULT 0 NOT NULL,
	"is_listed" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_records_total_shares" CHECK ("share_records"."total_shares" > 0),
	CONSTRAINT "share_records_price" CHECK ("share_records"."share_price_cents" >= 0),
	CONSTRAINT "share_records_dividend" CHECK ("share_records"."last_dividend_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_price_history" (
	"company_id" integer NOT NULL,
	"week" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_price_history_company_id_week_pk" PRIMARY KEY("company_id","week"),
	CONSTRAINT "stock_price_history_price" CHECK ("stock_price_history"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"building_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"retail_price_cents" bigint NOT NULL,
	"cost_price_cents" bigint DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"units_sold_last_turn" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "store_products_quantity" CHECK ("store_products"."quantity" >= 0),
	CONSTRAINT "store_products_retail_price" CHECK ("store_products"."retail_price_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"description" text NOT NULL,
	"week" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_type" CHECK ("transactions"."type" in ('production', 'sale', 'purchase', 'stock_trade', 'building', 'other'))
);
--> statement-breakpoint
ALTER TABLE "oauth_accounts" ADD CONSTRAINT "oauth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "city_market_data" ADD CONSTRAINT "city_market_data_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "city_market_data" ADD CONSTRAINT "city_market_data_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_inputs" ADD CONSTRAINT "recipe_inputs_recipe_id_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."recipes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_inputs" ADD CONSTRAINT "recipe_inputs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipes" ADD CONSTRAINT "recipes_building_type_building_types_type_fk" FOREIGN KEY ("building_type") REFERENCES "public"."building_types"("type") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipes" ADD CONSTRAINT "recipes_output_product_id_products_id_fk" FOREIGN KEY ("output_product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_upgrades" ADD CONSTRAINT "research_upgrades_prerequisite_id_research_upgrades_id_fk" FOREIGN KEY ("prerequisite_id") REFERENCES "public"."research_upgrades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_upgrades" ADD CONSTRAINT "research_upgrades_building_type_building_types_type_fk" FOREIGN KEY ("building_type") REFERENCES "public"."building_types"("type") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_inventory_items" ADD CONSTRAINT "building_inventory_items_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "building_inventory_items" ADD CONSTRAINT "building_inventory_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_type_building_types_type_fk" FOREIGN KEY ("type") REFERENCES "public"."building_types"("type") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_selected_recipe_id_recipes_id_fk" FOREIGN KEY ("selected_recipe_id") REFERENCES "public"."recipes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_research" ADD CONSTRAINT "company_research_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_research" ADD CONSTRAINT "company_research_upgrade_id_research_upgrades_id_fk" FOREIGN KEY ("upgrade_id") REFERENCES "public"."research_upgrades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "financial_history" ADD CONSTRAINT "financial_history_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "influence_records" ADD CONSTRAINT "influence_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "influence_records" ADD CONSTRAINT "influence_records_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_activity" ADD CONSTRAINT "market_activity_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "political_events" ADD CONSTRAINT "political_events_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "political_events" ADD CONSTRAINT "political_events_beneficiary_company_id_companies_id_fk" FOREIGN KEY ("beneficiary_company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_entries" ADD CONSTRAINT "portfolio_entries_holder_company_id_companies_id_fk" FOREIGN KEY ("holder_company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_entries" ADD CONSTRAINT "portfolio_entries_issuer_company_id_companies_id_fk" FOREIGN KEY ("issuer_company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_records" ADD CONSTRAINT "share_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_price_history" ADD CONSTRAINT "stock_price_history_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_products" ADD CONSTRAINT "store_products_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_products" ADD CONSTRAINT "store_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_accounts_user_id_idx" ON "oauth_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "cities_country_id_idx" ON "cities" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "city_market_data_product_id_idx" ON "city_market_data" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category");--> statement-breakpoint
CREATE INDEX "recipes_building_type_idx" ON "recipes" USING btree ("building_type");--> statement-breakpoint
CREATE INDEX "recipes_output_product_id_idx" ON "recipes" USING btree ("output_product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "building_inventory_items_building_product_key" ON "building_inventory_items" USING btree ("building_id","product_id");--> statement-breakpoint
CREATE INDEX "buildings_company_id_idx" ON "buildings" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "buildings_city_id_idx" ON "buildings" USING btree ("city_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_active_user_key" ON "companies" USING btree ("user_id") WHERE "companies"."status" = 'active';--> statement-breakpoint
CREATE INDEX "companies_is_bot_idx" ON "companies" USING btree ("is_bot");--> statement-breakpoint
CREATE UNIQUE INDEX "financial_history_company_week_key" ON "financial_history" USING btree ("company_id","week");--> statement-breakpoint
CREATE INDEX "influence_records_country_idx" ON "influence_records" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "inventory_items_product_id_idx" ON "inventory_items" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "political_events_country_idx" ON "political_events" USING btree ("country_id","active_until_week");--> statement-breakpoint
CREATE INDEX "political_events_created_idx" ON "political_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "portfolio_entries_issuer_idx" ON "portfolio_entries" USING btree ("issuer_company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_products_building_product_key" ON "store_products" USING btree ("building_id","product_id");--> statement-breakpoint
CREATE INDEX "store_products_product_id_idx" ON "store_products" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "transactions_company_created_idx" ON "transactions" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_company_week_idx" ON "transactions" USING btree ("company_id","week");--> statement-breakpoint
CREATE INDEX "transactions_large_idx" ON "transactions" USING btree ("created_at") WHERE abs("transactions"."amount_cents") > 1000000;
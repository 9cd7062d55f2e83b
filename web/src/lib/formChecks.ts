/**
 * The web's form schemas (spec section 5): each form checks, as the player types, the exact request
 * it would send with the schema the API parses that request with (`@marketcraft/shared`,
 * `shared/src/schemas/`), so the browser and the server cannot disagree on what is valid. What the
 * player reads under each field is the spec's local message for that field.
 *
 * Nothing is guessed: a field's text is read only if it is plainly a number of its kind (whole
 * numbers: digits only; money: digits with at most two decimals). '2.5' in a whole-number field,
 * '0.001' or '4.355' as a price, '1e3', '-3' or '' are refused with the field's message, never
 * rounded, clamped or replaced by a default.
 *
 * The spec's client rules have no upper limits; where the server has one (at most 1,000,000 units
 * per trade, 1,000,000 shares, $1,000,000,000 of influence), the schema's message, which names the
 * limit, is shown instead. docs/web.md lists where the spec's client rule and the server schema
 * differ; the server rule is the one applied.
 */
import {
  INFLUENCE_UNIT_COST,
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_PRODUCTION_RATE,
  MIN_PRODUCTION_RATE,
  buildBuildingInput,
  buildingInventoryPurchaseInput,
  hireEmployeesInput,
  marketTradeInput,
  placeExchangeOrderInput,
  offerContractInput,
  politicsInvestSchema,
  productionRateInput,
  selectCategoryInput,
  selectRecipeInput,
  stockTradeSchema,
  transferToStoreInput,
  updateStorePriceInput,
  upgradeEquipmentInput,
  warehouseMoveInput,
} from '@marketcraft/shared';

/** A toast's title and text. */
interface LocalMessage {
  title: string;
  message: string;
}

/** The message to show under each field that is wrong. */
type FieldErrors = Partial<Record<string, string>>;

export type FormCheck<Request> = { ok: true; request: Request; errors: FieldErrors } | { ok: false; error: LocalMessage; errors: FieldErrors };

/** How a field's text must read before it is a number: a whole number, or dollars and cents. */
export type NumberKind = 'whole' | 'money';

const WHOLE_TEXT = /^\s*\d+\s*$/;
const MONEY_TEXT = /^\s*(?:\d+(?:\.\d{1,2})?|\.\d{1,2})\s*$/;

/** The number a field's text plainly spells, or null ('2.5' is no whole number, '4.355' no money). */
export function readNumber(text: string, kind: NumberKind): number | null {
  return (kind === 'whole' ? WHOLE_TEXT : MONEY_TEXT).test(text) ? Number(text) : null;
}

/** The part of a zod schema this module uses (structural, so the web needs no zod import). */
interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
}
interface RequestSchema<Request> {
  safeParse(input: unknown): { success: true; data: Request } | { success: false; error: { issues: SchemaIssue[] } };
}

interface FieldRule extends LocalMessage {
  /** Text input: how its text must read (the form passes the field's raw text). */
  kind?: NumberKind;
  /** Above the server's upper limit, show the schema's message (it names the limit). */
  limitFromSchema?: boolean;
  /** A whole-number field given a decimal ('1.5'): this message instead (it says what is wrong). */
  fraction?: string;
}

/** A decimal number ('1.5', '.5'): in a whole-number field it gets the rule's `fraction` message. */
const DECIMAL_TEXT = /^\s*\d*\.\d+\s*$/;

/**
 * Checks `input` (fields as the player typed them) against `schema`. Every field in `fields` that
 * is wrong gets its message in `errors`; `error` is the first one (in `fields` order), or, for a
 * field the form does not show, the schema's own message under `otherTitle`.
 */
function checkRequest<Request>(
  schema: RequestSchema<Request>,
  input: Record<string, unknown>,
  fields: Readonly<Record<string, FieldRule>>,
  otherTitle = 'Error',
): FormCheck<Request> {
  const errors: FieldErrors = {};
  const read: Record<string, unknown> = { ...input };
  for (const [name, rule] of Object.entries(fields)) {
    const value = input[name];
    if (!rule.kind || typeof value !== 'string') continue;
    const number = readNumber(value, rule.kind);
    if (number === null) errors[name] = rule.fraction && DECIMAL_TEXT.test(value) ? rule.fraction : rule.message;
    else read[name] = number;
  }
  const parsed = schema.safeParse(read);
  let other: LocalMessage | null = null;
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      const rule = fields[name];
      if (!rule) {
        other ??= { title: otherTitle, message: issue.message };
        continue;
      }
      errors[name] ??= rule.limitFromSchema && issue.code === 'too_big' ? issue.message : rule.message;
    }
  }
  const firstField = Object.keys(fields).find((name) => errors[name] !== undefined);
  if (firstField) return { ok: false, errors, error: { title: fields[firstField]!.title, message: errors[firstField]! } };
  if (other) return { ok: false, errors, error: other };
  if (!parsed.success) return { ok: false, errors, error: { title: otherTitle, message: 'Invalid input' } };
  return { ok: true, request: parsed.data, errors };
}

// The spec's local messages (section 5), verbatim.
const SPEC_MESSAGES = {
  quantityAboveZero: { title: 'Invalid quantity', message: 'Please enter a quantity greater than 0', limitFromSchema: true, kind: 'whole' },
  // Exchange and contract units: the spec has no message of its own for these forms; 1.5 units is
  // told it must be whole (the market's 'greater than 0' misread it), 0 keeps the market's message.
  wholeUnits: {
    title: 'Invalid quantity',
    message: 'Please enter a quantity greater than 0',
    fraction: 'Please enter a whole number of units',
    limitFromSchema: true,
    kind: 'whole',
  },
  validQuantity: { title: 'Invalid quantity', message: 'Please enter a valid quantity', limitFromSchema: true, kind: 'whole' },
  validPrice: { title: 'Invalid price', message: 'Please enter a valid price', kind: 'money' },
  hireCount: { title: 'Invalid number', message: `Please enter a number between 1 and ${MAX_HIRE_PER_ACTION}`, kind: 'whole' },
  // A Select's value is text ('3'): the request schemas take numbers only, so the form reads it (kind).
  equipmentLevel: { title: 'Invalid level', message: `Please select a valid level (2-${MAX_EQUIPMENT_LEVEL})`, kind: 'whole' },
  productionRate: { title: 'Invalid rate', message: `Production rate must be between ${MIN_PRODUCTION_RATE} and ${MAX_PRODUCTION_RATE}`, kind: 'whole' },
  noCountry: { title: 'No country selected', message: 'Please select a country first' },
  missingSelection: { title: 'Missing selection', message: 'Please select both building type and city' },
  // The spec reads a non-numeric units field as 1; we never guess, so it gets a message (docs/web.md).
  influenceUnits: { title: 'Invalid units', message: 'Please enter a whole number of units (at least 1)', kind: 'whole' },
} as const satisfies Record<string, FieldRule>;

/** Market (POST /market/trade): quantity > 0 ('Invalid quantity' / 'Please enter a quantity greater than 0'). */
export function checkMarketTrade(input: { product_id: number; quantity: string | number; action: 'buy' | 'sell' }) {
  return checkRequest(marketTradeInput, input, { quantity: SPEC_MESSAGES.quantityAboveZero });
}

/** Exchange (POST /exchange/orders): whole units > 0 and a limit price in whole cents (docs/exchange.md). */
export function checkExchangeOrder(input: { product_id: number; side: 'buy' | 'sell'; quantity: string; limit_price: string; weeks: number }) {
  return checkRequest(placeExchangeOrderInput, input, { quantity: SPEC_MESSAGES.wholeUnits, limit_price: SPEC_MESSAGES.validPrice });
}

/** Contracts (POST /contracts): a company, whole units > 0, a price in whole cents (docs/exchange.md). */
export function checkContractOffer(input: {
  buyer_company_id: number | undefined;
  product_id: number;
  quantity: string;
  unit_price: string;
  expires_week: number;
}) {
  return checkRequest(offerContractInput, input, {
    buyer_company_id: { title: 'No company selected', message: 'Please choose the company to offer to' },
    quantity: SPEC_MESSAGES.wholeUnits,
    unit_price: SPEC_MESSAGES.validPrice,
  });
}

/** Stocks (POST /stocks/trade): share count > 0, with the market's wording. */
export function checkStockTrade(input: { company_id: number; shares: string | number; action: 'buy' | 'sell' }) {
  return checkRequest(stockTradeSchema, input, { shares: SPEC_MESSAGES.quantityAboveZero });
}

/**
 * Politics (POST /politics/invest {country_id, amount}): a country first ('No country selected'),
 * then whole units of $1,000 (the request's amount = units x $1,000).
 */
export function checkPoliticsInvest(input: { country_id: number | undefined; units: string }): FormCheck<{ country_id: number; amount: number }> {
  const units = readNumber(input.units, 'whole');
  const request = { country_id: input.country_id, amount: units === null || units < 1 ? Number.NaN : units * INFLUENCE_UNIT_COST };
  const checked = checkRequest(
    politicsInvestSchema,
    request,
    { country_id: SPEC_MESSAGES.noCountry, amount: { ...SPEC_MESSAGES.influenceUnits, kind: undefined, limitFromSchema: true } },
    'Invalid amount',
  );
  // The form's field is `units`: its message goes there.
  const { amount, ...errors } = checked.errors;
  return { ...checked, errors: amount ? { ...errors, units: amount } : errors } as FormCheck<{ country_id: number; amount: number }>;
}

/** Build (POST /buildings): type and city ('Missing selection' / 'Please select both building type and city'). */
export function checkBuild(input: { type: string | null; city_id: number | undefined }) {
  return checkRequest(buildBuildingInput, input, { type: SPEC_MESSAGES.missingSelection, city_id: SPEC_MESSAGES.missingSelection });
}

/** Hire employees (POST /buildings/{id}/hire-employees): a whole number from 1 to 10. */
export function checkHire(input: { id: number; count: string | number }) {
  return checkRequest(hireEmployeesInput, input, { count: SPEC_MESSAGES.hireCount });
}

/**
 * Equipment upgrade (POST /buildings/{id}/upgrade-equipment). The server's schema takes levels 1-5
 * (the spec's shared schema); the spec's client rule is 2-5 with levels at or below the current one
 * not offered, which the server's operation enforces too (422). Both are checked here.
 */
export function checkEquipmentUpgrade(input: { id: number; target_level: unknown }, currentLevel: number): FormCheck<{ id: number; target_level: number }> {
  const checked = checkRequest(upgradeEquipmentInput, input, { target_level: SPEC_MESSAGES.equipmentLevel });
  if (checked.ok && checked.request.target_level <= currentLevel) {
    const { title, message } = SPEC_MESSAGES.equipmentLevel;
    return { ok: false, error: { title, message }, errors: { target_level: message } };
  }
  return checked;
}

/** Production rate (PUT /buildings/{id}/production-rate): a whole number from 10 to 200. */
export function checkProductionRate(input: { id: number; new_rate: string | number }) {
  return checkRequest(productionRateInput, input, { new_rate: SPEC_MESSAGES.productionRate });
}

/** Trade hall products and factory raw materials (POST /buildings/{id}/inventory/purchase): a positive whole quantity. */
export function checkBuildingPurchase(input: { id: number; product_id: number; quantity: string | number }) {
  return checkRequest(buildingInventoryPurchaseInput, input, { quantity: SPEC_MESSAGES.validQuantity });
}

/** Add to store (POST /buildings/{id}/inventory/transfer-to-store): positive whole quantity, then a price in whole cents. */
export function checkTransferToStore(input: { id: number; product_id: number; quantity: string | number; retail_price: string | number }) {
  return checkRequest(transferToStoreInput, input, { quantity: SPEC_MESSAGES.validQuantity, retail_price: SPEC_MESSAGES.validPrice });
}

/** Store price edit (PUT /stores/{id}/products/{productId}): the new price, in whole cents. */
export function checkStorePrice(input: { id: number; product_id: number; retail_price: string | number }) {
  return checkRequest(updateStorePriceInput, input, { retail_price: SPEC_MESSAGES.validPrice });
}

/** Recipe dialog and factory list (PUT /buildings/{id}/select-recipe): confirm stays disabled until this passes. */
export function checkRecipeSelection(input: { id: number; recipe_id: unknown }) {
  // The Select's value is the recipe id as text ('12'), read as a number here (the schema takes numbers only).
  return checkRequest(selectRecipeInput, input, { recipe_id: { title: 'Missing selection', message: 'Please choose a recipe', kind: 'whole' } });
}

/** Category dialog (PUT /buildings/{id}/select-category): confirm stays disabled until this passes. */
export function checkCategorySelection(input: { id: number; category: unknown }) {
  return checkRequest(selectCategoryInput, input, {});
}

/** Warehouse moves (POST /warehouse/move): a store, then a positive whole quantity. */
export function checkWarehouseMove(input: {
  building_id: number | undefined;
  product_id: number;
  quantity: string | number;
  direction: 'to_back_room' | 'to_warehouse';
}) {
  return checkRequest(warehouseMoveInput, input, {
    building_id: { title: 'No store selected', message: 'Please select a store' },
    quantity: SPEC_MESSAGES.validQuantity,
  });
}

/** A quantity the source cannot cover: the form's message, with what there is (the server would answer 409). */
export function moreThanHeld(quantity: number | null, held: number): string | undefined {
  return quantity !== null && quantity > held ? `Please enter a valid quantity: you have ${held.toLocaleString('en-US')}` : undefined;
}

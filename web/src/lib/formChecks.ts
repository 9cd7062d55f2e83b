/**
 * Local validation of the web's forms (spec section 5) with the API's own request schemas from
 * @marketcraft/shared (`shared/src/schemas/`): each form parses the exact request it is about to
 * send with the schema the server parses that request with (`schema.safeParse`), so the browser
 * and the API cannot disagree on what is valid. What the player reads is the spec's local title and
 * message for the field that is wrong (the schemas' own messages are the API's).
 *
 * The spec's client rules have no upper limits; where the server has one (at most 1,000,000 units
 * per trade, 1,000,000 shares, $1,000,000,000 of influence), the schema's message, which names the
 * limit, is shown under the form's title. docs/web.md lists where the spec's client rule and the
 * server schema differ; the server rule is the one applied.
 */
import {
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_PRODUCTION_RATE,
  MIN_PRODUCTION_RATE,
  buildBuildingInput,
  buildingInventoryPurchaseInput,
  hireEmployeesInput,
  marketTradeInput,
  politicsInvestSchema,
  productionRateInput,
  selectCategoryInput,
  selectRecipeInput,
  stockTradeSchema,
  transferToStoreInput,
  updateStorePriceInput,
  upgradeEquipmentInput,
} from '@marketcraft/shared';

/** A toast's title and text. */
export interface LocalMessage {
  title: string;
  message: string;
}

export type FormCheck<Request> = { ok: true; request: Request } | { ok: false; error: LocalMessage };

/** The part of a zod schema this module uses (structural, so the web needs no zod import). */
interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
}
interface RequestSchema<Request> {
  safeParse(input: unknown): { success: true; data: Request } | { success: false; error: { issues: SchemaIssue[] } };
}

interface FieldMessage extends LocalMessage {
  /** Above the server's upper limit, show the schema's message (it names the limit) under `title`. */
  limitFromSchema?: boolean;
}

/**
 * Parses `input` with `schema`. On failure: the spec's message for the first field that is wrong
 * (fields in the schema's order), or, for a field the spec says nothing about, the schema's own
 * message under `otherTitle`.
 */
export function checkRequest<Request>(
  schema: RequestSchema<Request>,
  input: unknown,
  fields: Readonly<Record<string, FieldMessage>>,
  otherTitle = 'Error',
): FormCheck<Request> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, request: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, error: { title: otherTitle, message: 'Invalid input' } };
  const field = fields[String(issue.path[0] ?? '')];
  if (!field) return { ok: false, error: { title: otherTitle, message: issue.message } };
  const message = field.limitFromSchema && issue.code === 'too_big' ? issue.message : field.message;
  return { ok: false, error: { title: field.title, message } };
}

// The spec's local messages (section 5), verbatim.
export const SPEC_MESSAGES = {
  quantityAboveZero: { title: 'Invalid quantity', message: 'Please enter a quantity greater than 0', limitFromSchema: true },
  validQuantity: { title: 'Invalid quantity', message: 'Please enter a valid quantity', limitFromSchema: true },
  validPrice: { title: 'Invalid price', message: 'Please enter a valid price' },
  hireCount: { title: 'Invalid number', message: `Please enter a number between 1 and ${MAX_HIRE_PER_ACTION}` },
  equipmentLevel: { title: 'Invalid level', message: `Please select a valid level (2-${MAX_EQUIPMENT_LEVEL})` },
  productionRate: { title: 'Invalid rate', message: `Production rate must be between ${MIN_PRODUCTION_RATE} and ${MAX_PRODUCTION_RATE}` },
  noCountry: { title: 'No country selected', message: 'Please select a country first' },
  missingSelection: { title: 'Missing selection', message: 'Please select both building type and city' },
} as const satisfies Record<string, FieldMessage>;

/** Market (POST /market/trade): quantity > 0 ('Invalid quantity' / 'Please enter a quantity greater than 0'). */
export function checkMarketTrade(input: { product_id: number; quantity: unknown; action: 'buy' | 'sell' }) {
  return checkRequest(marketTradeInput, input, { quantity: SPEC_MESSAGES.quantityAboveZero });
}

/** Stocks (POST /stocks/trade): share count > 0, with the market's wording. */
export function checkStockTrade(input: { company_id: number; shares: unknown; action: 'buy' | 'sell' }) {
  return checkRequest(stockTradeSchema, input, { shares: SPEC_MESSAGES.quantityAboveZero });
}

/** Politics (POST /politics/invest): a country first ('No country selected' / 'Please select a country first'). */
export function checkPoliticsInvest(input: { country_id: number | undefined; amount: number }) {
  return checkRequest(politicsInvestSchema, input, { country_id: SPEC_MESSAGES.noCountry }, 'Invalid amount');
}

/** Build (POST /buildings): type and city ('Missing selection' / 'Please select both building type and city'). */
export function checkBuild(input: { type: string | null; city_id: number | undefined }) {
  return checkRequest(buildBuildingInput, input, { type: SPEC_MESSAGES.missingSelection, city_id: SPEC_MESSAGES.missingSelection });
}

/** Hire employees (POST /buildings/{id}/hire-employees): a whole number from 1 to 10. */
export function checkHire(input: { id: number; count: unknown }) {
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
    return { ok: false, error: { title, message } };
  }
  return checked;
}

/** Production rate (PUT /buildings/{id}/production-rate): a whole number from 10 to 200. */
export function checkProductionRate(input: { id: number; new_rate: unknown }) {
  return checkRequest(productionRateInput, input, { new_rate: SPEC_MESSAGES.productionRate });
}

/** Trade hall products and factory raw materials (POST /buildings/{id}/inventory/purchase): a positive whole quantity. */
export function checkBuildingPurchase(input: { id: number; product_id: number; quantity: unknown }) {
  return checkRequest(buildingInventoryPurchaseInput, input, { quantity: SPEC_MESSAGES.validQuantity });
}

/** Add to store (POST /buildings/{id}/inventory/transfer-to-store): positive whole quantity, then a positive price. */
export function checkTransferToStore(input: { id: number; product_id: number; quantity: unknown; retail_price: unknown }) {
  return checkRequest(transferToStoreInput, input, { quantity: SPEC_MESSAGES.validQuantity, retail_price: SPEC_MESSAGES.validPrice });
}

/** Store price edit (PUT /stores/{id}/products/{productId}): sent only when this passes (spec: no message). */
export function checkStorePrice(input: { id: number; product_id: number; retail_price: unknown }) {
  return checkRequest(updateStorePriceInput, input, { retail_price: SPEC_MESSAGES.validPrice });
}

/** Recipe dialog and factory list (PUT /buildings/{id}/select-recipe): confirm stays disabled until this passes. */
export function checkRecipeSelection(input: { id: number; recipe_id: unknown }) {
  return checkRequest(selectRecipeInput, input, {});
}

/** Category dialog (PUT /buildings/{id}/select-category): confirm stays disabled until this passes. */
export function checkCategorySelection(input: { id: number; category: unknown }) {
  return checkRequest(selectCategoryInput, input, {});
}

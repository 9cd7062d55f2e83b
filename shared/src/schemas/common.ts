/**
 * Building blocks of the request schemas (spec section 5). Ids and counts coerce from strings so
 * the same schema reads a path parameter ("/buildings/7"), a query string and a JSON body.
 */
import { z } from 'zod';
import { MAX_ROW_ID } from '../constants.ts';

/** A positive integer id that fits the integer id columns (larger ids cannot exist). */
export const idSchema = z.coerce.number<unknown>().int().positive().max(MAX_ROW_ID, 'This id does not exist');
/** A positive whole number of units (quantity, shares). */
export const positiveIntegerSchema = z.coerce.number<unknown>().int().positive();
/** A positive dollar amount with at most two decimals' worth of meaning (rounded to cents). */
export const positiveDollarsSchema = z.coerce.number<unknown>().positive().max(1_000_000_000);

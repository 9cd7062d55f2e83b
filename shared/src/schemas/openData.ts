/** The open data routes' inputs (docs/open-data.md): a world, a finished week, a table and a format. */
import { z } from 'zod';
import { DATA_FILE_FORMATS, DATA_TABLE_NAMES, isDataTableName, unknownDataTableMessage, type DataTableName } from '../openData.ts';
import { idSchema } from './common.ts';

/** GET /api/data/worlds/{id}/manifest.json. */
export const dataManifestInput = z.object({ id: idSchema });

/** GET /api/data/worlds/{id}/weeks/{week}/{table}.{format}: the table is checked by name, with the list of tables in the message. */
export const dataFileInput = z.object({
  id: idSchema,
  week: z
    .number({ error: 'week must be a whole number, 1 or more' })
    .int('week must be a whole number, 1 or more')
    .min(1, 'week must be a whole number, 1 or more')
    .max(1_000_000_000, 'week must be a whole number, 1 or more'),
  table: z.string().refine(isDataTableName, { error: (issue) => unknownDataTableMessage(String(issue.input)) }),
  format: z.enum(DATA_FILE_FORMATS, { error: "Unknown file: a week's files are <table>.csv.gz and <table>.parquet" }),
});

const dataColumnResponse = z.strictObject({
  name: z.string(),
  type: z.enum(['int32', 'int64', 'dollars', 'text', 'boolean']).describe('dollars: exact cents as a number with two decimals (a double in Parquet)'),
  unit: z.enum(['week', 'id', 'text', 'dollars', 'units', 'shares', 'count', 'rank', 'flag']),
  description: z.string(),
  nullable: z.boolean().describe('May be empty (CSV) or null (Parquet)'),
});

/** GET /api/data/worlds/{id}/manifest.json (docs/open-data.md). */
export const dataManifestResponse = z.strictObject({
  world_id: z.number().int().positive(),
  world_name: z.string(),
  current_week: z.number().int().positive().describe('The week being played: every week before it is finished'),
  format_version: z.number().int().positive().describe('Bumped when a column changes meaning; new columns and tables keep it'),
  tables: z.array(
    z.strictObject({
      name: z.enum(DATA_TABLE_NAMES as [DataTableName, ...DataTableName[]]),
      description: z.string(),
      key: z.array(z.string()).describe('The columns that identify a row'),
      columns: z.array(dataColumnResponse),
    }),
  ),
  weeks: z
    .array(
      z.strictObject({
        week: z.number().int().positive(),
        files: z.array(
          z.strictObject({
            table: z.enum(DATA_TABLE_NAMES as [DataTableName, ...DataTableName[]]),
            format: z.enum(DATA_FILE_FORMATS),
            url: z.string().describe('Where to download it (under the server)'),
            rows: z.number().int().min(0),
            bytes: z.number().int().positive(),
            sha256: z.string().describe('Hex SHA-256 of the file: also its ETag'),
          }),
        ),
      }),
    )
    .describe('Every finished week that has data files, oldest first; a week whose files are not made yet lists none (they are made by their first request)'),
});

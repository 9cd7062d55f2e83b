/**
 * `npm run openapi -w @marketcraft/api [-- <file>]`: the OpenAPI document (GET /api/openapi.json),
 * built from the code without a server or database, to stdout or a file. Spectral lints it
 * (api/test/openapi-lint.test.ts) and the TypeScript client is generated from it
 * (clients/typescript/scripts/generate.ts).
 */
import { writeFile } from 'node:fs/promises';
import { buildOpenApiDocument } from '../src/openapi.ts';

const text = JSON.stringify(buildOpenApiDocument(), null, 2) + '\n';
const target = process.argv[2];
if (target) await writeFile(target, text);
else process.stdout.write(text);

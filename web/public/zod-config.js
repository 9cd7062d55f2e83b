// zod compiles object parsers with `new Function` when it may, deciding as each schema is built.
// The Content-Security-Policy forbids eval (api/src/securityHeaders.ts), so the app tells zod to
// parse without it, in zod's global settings (what z.config({ jitless: true }) writes), from a
// classic script that runs before the app's modules build the shared schemas. An import in
// main.tsx would be too late: the bundler evaluates the shared schemas' chunk first.
// web/e2e/security.e2e.test.ts fails if a page reports a CSP violation.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });

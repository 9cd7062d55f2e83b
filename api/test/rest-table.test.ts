/**
 * The REST table (api/src/rest.ts) is an explicit list of procedures (issue 13). This test is the
 * one place that looks at the routers through tRPC's internal record of every procedure by path
 * (`_def.procedures`): if a procedure declares `meta.rest` but is missing from the list, or the
 * list names a procedure under another path, the route would silently not exist (or answer for the
 * wrong procedure), so it fails here instead. Should tRPC change that record, only this test needs
 * to change, not the server.
 */
import { describe, expect, it } from 'vitest';
import type { AnyTRPCProcedure } from '@trpc/server';
import { appRouter } from '../src/root.ts';
import { REST_PROCEDURES, restRoutes } from '../src/rest.ts';
import type { ProcedureMeta } from '../src/trpc.ts';

// Typed as the nested record; at run time tRPC keeps it flat, by dotted path ('market.trade').
const everyProcedure = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>);
const restOf = (procedure: AnyTRPCProcedure) => (procedure._def.meta as ProcedureMeta | undefined)?.rest;
const listed = REST_PROCEDURES as Record<string, AnyTRPCProcedure>;

describe('the REST table', () => {
  it('lists every procedure that declares a REST method and path, under its own tRPC path', () => {
    expect(everyProcedure.length).toBeGreaterThan(50);
    const declared = everyProcedure.filter(([, procedure]) => restOf(procedure)).map(([path]) => path);
    const missing = declared.filter((path) => listed[path] === undefined);
    expect(missing, 'add these to REST_PROCEDURES in api/src/rest.ts').toEqual([]);
    for (const [path, procedure] of everyProcedure) {
      if (listed[path] !== undefined) expect(listed[path], `REST_PROCEDURES['${path}'] is another procedure`).toBe(procedure);
    }
  });

  it('lists nothing else: each entry is a procedure of the routers with a REST method and path', () => {
    const known = new Map(everyProcedure);
    for (const [path, procedure] of Object.entries(listed)) {
      expect(known.get(path), `${path} is not a procedure of the routers`).toBe(procedure);
      expect(restOf(procedure), `${path} declares no meta.rest`).toBeDefined();
    }
    expect(restRoutes().map((route) => route.procedurePath)).toEqual(Object.keys(listed));
  });

  it('gives each method and path to one procedure only', () => {
    const routes = restRoutes().map((route) => `${route.method} ${route.path}`);
    expect(routes.filter((route, index) => routes.indexOf(route) !== index)).toEqual([]);
  });
});

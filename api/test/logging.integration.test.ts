/**
 * Logs an operator can read: one JSON line per request with its id (the X-Request-Id answered),
 * method, route, status, duration, user and company; an unexpected error logged once, with its
 * stack and the request's id, while the player reads a generic message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '@marketcraft/db/testing/memoryLogger.ts';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { UNDECLARED_PROXY_WARNING } from '../src/clientIp.ts';

describe('request logs', () => {
  let app: TestApp;
  const { logger, lines } = memoryLogger('api');
  beforeAll(async () => {
    app = await startTestApp({
      services: {
        logger,
        advanceTurn: async () => {
          throw new Error('the queue exploded');
        },
      },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  const requestLines = (reqId: string | null) => lines.filter((line) => line.route !== undefined && line.reqId === reqId);

  it('logs every request once, with the id it answers as X-Request-Id, its route, status, duration and company', async () => {
    const player = await app.createPlayer();
    const response = await app.api('GET', `/company`, { token: player.token });
    expect(response.status).toBe(200);
    const reqId = response.headers.get('x-request-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = requestLines(reqId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30,
      name: 'api',
      method: 'GET',
      route: '/api/company',
      status: 200,
      userId: player.userId,
      companyId: player.companyId,
    });
    expect(typeof logged[0]!.durationMs).toBe('number');
    expect(typeof logged[0]!.time).toBe('string');

    // A route with a parameter is logged by its pattern; an anonymous 401 has no company.
    const building = await app.api('GET', '/buildings/999999', { token: player.token });
    expect(requestLines(building.headers.get('x-request-id'))[0]).toMatchObject({ route: '/api/buildings/:id', status: 404, companyId: player.companyId });
    const anonymous = await app.api('GET', '/company');
    const anonymousLine = requestLines(anonymous.headers.get('x-request-id'))[0];
    expect(anonymousLine).toMatchObject({ route: '/api/company', status: 401 });
    expect(anonymousLine).not.toHaveProperty('companyId');
  });

  it("keeps a caller's plain request id and replaces one that is not", async () => {
    const kept = await app.api('GET', '/world', { headers: { 'x-request-id': 'lb-42_abc' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-42_abc');
    expect(requestLines('lb-42_abc')).toHaveLength(1);
    const replaced = await app.api('GET', '/world', { headers: { 'x-request-id': 'bad id\twith "quotes"' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names the procedures of a tRPC request', async () => {
    const response = await fetch(`${app.baseUrl}/api/trpc/world.state,world.state?batch=1&input=${encodeURIComponent('{}')}`);
    expect(response.status).toBe(200);
    expect(requestLines(response.headers.get('x-request-id'))[0]).toMatchObject({ route: '/api/trpc/*', procedures: 'world.state,world.state' });
  });

  it('logs an unexpected error once, with its stack and request id, and answers a generic 500', async () => {
    const admin = await app.createPlayer({ isAdmin: true });
    const response = await app.api('POST', '/admin/advance-turn', { token: admin.token });
    expect(response).toMatchObject({ status: 500, body: { error: 'Something went wrong on our side. Please try again.' } });
    const reqId = response.headers.get('x-request-id');
    const errors = lines.filter((line) => line.level === 50 && line.reqId === reqId);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.err).toMatchObject({ type: 'Error', message: 'the queue exploded' });
    expect(errors[0]!.err.stack).toContain('logging.integration.test.ts');
    expect(requestLines(reqId)).toMatchObject([{ status: 500, level: 40 }]);
    expect(JSON.stringify(response.body)).not.toContain('exploded');
  });

  it('warns the operator once when requests come through a proxy that TRUST_PROXY_HOPS does not declare', async () => {
    const warnings = () => lines.filter((line) => line.msg === UNDECLARED_PROXY_WARNING);
    await fetch(`${app.baseUrl}/api/health`);
    expect(warnings()).toEqual([]);
    for (const header of ['x-forwarded-for', 'x-real-ip']) await fetch(`${app.baseUrl}/api/world`, { headers: { [header]: '203.0.113.5' } });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ level: 40, header: 'x-forwarded-for' });
  });
});

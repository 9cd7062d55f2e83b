/** GET /api/openapi.json (generated from the REST table and its zod input schemas) and GET /api/docs. */
import type { Hono } from 'hono';
import { z } from 'zod';
import { restRoutes } from './rest.ts';

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes()) {
    const parameters: unknown[] = [];
    for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
    }
    const inputSchema = route.procedure._def.inputs[0] as z.ZodType | undefined;
    const operation: Record<string, unknown> = {
      operationId: route.procedurePath,
      summary: route.summary ?? route.procedurePath,
      parameters,
      responses: {
        '200': { description: 'Success' },
        '400': { description: 'Invalid input: { "error": message }' },
        '401': { description: 'Not signed in' },
        '403': { description: 'Not allowed' },
        '404': { description: 'Unknown id' },
        '409': { description: 'A rule of the game refuses it (not enough cash, stock or shares)' },
      },
    };
    if (inputSchema) {
      const jsonSchema = z.toJSONSchema(inputSchema, { io: 'input', unrepresentable: 'any' });
      if (route.method === 'GET' || route.method === 'DELETE') {
        const properties = (jsonSchema.properties ?? {}) as Record<string, unknown>;
        const required = new Set((jsonSchema.required as string[] | undefined) ?? []);
        for (const [name, schema] of Object.entries(properties)) {
          if (route.path.includes(`{${name}}`)) continue;
          parameters.push({ name, in: 'query', required: required.has(name), schema });
        }
      } else {
        operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema } } };
      }
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Marketcraft API', version: '1.0.0', description: 'Every call the Marketcraft web app makes, as plain JSON over HTTP.' },
    servers: [{ url: '/api' }],
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'marketcraft_session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    security: [{ cookie: [] }, { bearer: [] }],
    paths,
  };
}

export function registerDocsRoutes(app: Hono): void {
  let cached: Record<string, unknown> | undefined;
  app.get('/api/openapi.json', (c) => c.json((cached ??= buildOpenApiDocument())));
  app.get('/api/docs', (c) => c.html(docsPage()));
}

function docsPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Marketcraft API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
h2{font-size:1rem;margin:1.5rem 0 .25rem}code{background:#f1f3f5;padding:.1rem .3rem;border-radius:4px}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.GET{color:#2f9e44}.POST{color:#1971c2}.PUT{color:#e8590c}.PATCH{color:#9c36b5}.DELETE{color:#e03131}
pre{background:#f8f9fa;padding:.5rem;border-radius:6px;overflow:auto;font-size:.8rem}</style></head>
<body><h1>Marketcraft API</h1><p>Every route answers JSON under <code>/api</code>. Sign in with <code>POST /api/auth/signin</code>; the session cookie (or <code>Authorization: Bearer &lt;token&gt;</code>) authenticates the rest. Errors answer <code>{ "error": message }</code>. The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<div id="routes">Loading…</div>
<script>
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const out=[];
  for(const [p,ops] of Object.entries(doc.paths)){for(const [m,op] of Object.entries(ops)){
    const M=m.toUpperCase();
    const body=op.requestBody?'<pre>'+JSON.stringify(op.requestBody.content['application/json'].schema,null,2).replace(/</g,'&lt;')+'</pre>':'';
    const q=(op.parameters||[]).filter(x=>x.in==='query').map(x=>'<code>'+x.name+'</code>').join(' ');
    out.push('<h2><span class="m '+M+'">'+M+'</span><code>/api'+p+'</code></h2><div>'+op.summary+(q?' &middot; query: '+q:'')+'</div>'+body);
  }}
  document.getElementById('routes').innerHTML=out.join('');
});
</script></body></html>`;
}

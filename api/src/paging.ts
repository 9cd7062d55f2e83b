/**
 * How a REST client learns where it is in a paged list of companies (docs/api.md, "Lists of
 * companies") or in the ledger (GET /api/transactions), as GitHub's REST API tells it: `X-Total-Count` (rows over all pages, filters
 * applied) and an RFC 8288 `Link` header with the `first`, `prev`, `next` and `last` pages. The
 * answer's body keeps its shape (an array stays an array), so a client that ignores the headers
 * reads exactly what it read before. tRPC calls (the web app, batched) get the figures in the body
 * of the procedures that carry them (GET /api/leaderboard, GET /api/stocks/overview) instead.
 */
import type { CompanyListPage } from '@marketcraft/shared';
import type { RequestContext } from './context.ts';

const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** An RFC 8288 `Link` header: each relation to the request's own path and query with `query` set by `place`. */
function linkHeader(requestUrl: string, relations: Array<[rel: string, place: Record<string, number>]>): string {
  const url = new URL(requestUrl);
  return relations
    .map(([rel, place]) => {
      const query = new URLSearchParams(url.search);
      for (const [name, value] of Object.entries(place)) query.set(name, String(value));
      return `<${url.pathname}?${query.toString()}>; rel="${rel}"`;
    })
    .join(', ');
}

/** `Link` header value for `page` of a list of `total` rows, relative to the request's own path and query. */
function pageLinks(requestUrl: string, total: number, page: Pick<CompanyListPage, 'limit' | 'offset'>): string {
  const at = (offset: number) => ({ limit: page.limit, offset });
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / page.limit) * page.limit;
  const relations: Array<[string, Record<string, number>]> = [['first', at(0)]];
  if (page.offset > 0) relations.push(['prev', at(Math.max(0, Math.min(page.offset - page.limit, lastOffset)))]);
  if (page.offset + page.limit < total) relations.push(['next', at(page.offset + page.limit)]);
  relations.push(['last', at(lastOffset)]);
  return linkHeader(requestUrl, relations);
}

/**
 * `Link` header value for page `page` (from 1) of `page_size` rows of the ledger (GET
 * /api/transactions pages by page number, docs/api.md): the same relations as the lists of
 * companies, in the ledger's own words. An empty ledger has one page, page 1.
 */
function numberedPageLinks(requestUrl: string, total: number, page: { page: number; page_size: number }): string {
  const at = (number: number) => ({ page: number, page_size: page.page_size });
  const lastPage = Math.max(1, Math.ceil(total / page.page_size));
  const relations: Array<[string, Record<string, number>]> = [['first', at(1)]];
  if (page.page > 1) relations.push(['prev', at(Math.min(page.page - 1, lastPage))]);
  if (page.page < lastPage) relations.push(['next', at(page.page + 1)]);
  relations.push(['last', at(lastPage)]);
  return linkHeader(requestUrl, relations);
}

/** Whether headers can be set for this one call (a tRPC batch has one set of headers for many calls). */
function isRestCall(ctx: Pick<RequestContext, 'req'>): boolean {
  return !new URL(ctx.req.url).pathname.startsWith('/api/trpc');
}

/** Sets X-Total-Count and Link on a REST answer (a tRPC batch has one set of headers for many calls: nothing is set). */
export function announcePage(ctx: Pick<RequestContext, 'req' | 'resHeaders'>, total: number, page: Pick<CompanyListPage, 'limit' | 'offset'>): void {
  if (!isRestCall(ctx)) return;
  ctx.resHeaders.set(TOTAL_COUNT_HEADER, String(total));
  ctx.resHeaders.set('Link', pageLinks(ctx.req.url, total, page));
}

/** The same for a page of the ledger (GET /api/transactions?page=&page_size=). */
export function announceNumberedPage(ctx: Pick<RequestContext, 'req' | 'resHeaders'>, total: number, page: { page: number; page_size: number }): void {
  if (!isRestCall(ctx)) return;
  ctx.resHeaders.set(TOTAL_COUNT_HEADER, String(total));
  ctx.resHeaders.set('Link', numberedPageLinks(ctx.req.url, total, page));
}

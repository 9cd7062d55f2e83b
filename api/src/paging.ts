/**
 * How a REST client learns where it is in a paged list of companies (docs/api.md, "Lists of
 * companies"), as GitHub's REST API tells it: `X-Total-Count` (rows over all pages, filters
 * applied) and an RFC 8288 `Link` header with the `first`, `prev`, `next` and `last` pages. The
 * answer's body keeps its shape (an array stays an array), so a client that ignores the headers
 * reads exactly what it read before. tRPC calls (the web app, batched) get the figures in the body
 * of the procedures that carry them (GET /api/leaderboard, GET /api/stocks/overview) instead.
 */
import type { CompanyListPage } from '@marketcraft/shared';
import type { RequestContext } from './context.ts';

export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** `Link` header value for `page` of a list of `total` rows, relative to the request's own path and query. */
export function pageLinks(requestUrl: string, total: number, page: Pick<CompanyListPage, 'limit' | 'offset'>): string {
  const url = new URL(requestUrl);
  const linkTo = (offset: number) => {
    const query = new URLSearchParams(url.search);
    query.set('limit', String(page.limit));
    query.set('offset', String(offset));
    return `<${url.pathname}?${query.toString()}>`;
  };
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / page.limit) * page.limit;
  const links = [`${linkTo(0)}; rel="first"`];
  if (page.offset > 0) links.push(`${linkTo(Math.max(0, Math.min(page.offset - page.limit, lastOffset)))}; rel="prev"`);
  if (page.offset + page.limit < total) links.push(`${linkTo(page.offset + page.limit)}; rel="next"`);
  links.push(`${linkTo(lastOffset)}; rel="last"`);
  return links.join(', ');
}

/** Sets X-Total-Count and Link on a REST answer (a tRPC batch has one set of headers for many calls: nothing is set). */
export function announcePage(ctx: Pick<RequestContext, 'req' | 'resHeaders'>, total: number, page: Pick<CompanyListPage, 'limit' | 'offset'>): void {
  if (new URL(ctx.req.url).pathname.startsWith('/api/trpc')) return;
  ctx.resHeaders.set(TOTAL_COUNT_HEADER, String(total));
  ctx.resHeaders.set('Link', pageLinks(ctx.req.url, total, page));
}

/**
 * Market (spec sections 2, 4, 5, 8; issue 10): a sortable, searchable table of every product (buy
 * and sell price, change this week, a sparkline of the recent weeks, what you hold), filtered by
 * category; selecting a product opens its panel (trade, price history, prices by city, recipes).
 * The selected product lives in the address (?product=ID), so the ledger and the warehouse link here.
 */
import { Suspense, lazy, memo, useCallback, useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMediaQuery } from '@mantine/hooks';
import { Card, Center, Grid, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { PageLoader } from '../../components/FullScreenLoader';
import { IconSearch, IconShoppingCart } from '@tabler/icons-react';
import { PRODUCT_CATEGORIES } from '@marketcraft/shared';
import { CashBadge } from '../../components/CashBadge';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { ScrollBox } from '../../components/ScrollBox';
import { SortableTh } from '../../components/SortableTh';
import { Sparkline, TrendTh } from '../../components/Sparkline';
import { useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { useScrollAfterPick } from '../../hooks/useScrollAfterPick';
import { formatMoney, formatPercentChange } from '../../lib/format';
import { pickOnRowClick } from '../../lib/rowClick';
import { nextSort, sortRows, type SortState } from '../../lib/sortTable';
import { trpc, type RouterOutputs } from '../../trpc';
import classes from './market.module.css';

/**
 * The selected product's panel, loaded when a product is first picked: its trade and order forms
 * check input with the API's schemas (zod), which the table does without.
 */
const ProductPanel = lazy(() => import('./ProductPanel').then((module) => ({ default: module.ProductPanel })));

type MarketProduct = RouterOutputs['market']['products'][number];
type Column = 'name' | 'buy_price' | 'sell_price' | 'change_percent' | 'held';

const valueOf = (product: MarketProduct, column: Column) => product[column];

/** The table's scrolling height; its card holds it while the products load, so nothing below moves when they come. */
const TABLE_HEIGHT = 620;

export default function MarketPage() {
  usePageMeta('Market', 'Buy raw materials and sell goods at market prices.');
  const products = trpc.market.products.useQuery();
  // The 304 rows are built in a deferred render, which React splits into short tasks (a phone stays
  // responsive; one long task before); the loader stays until they are built.
  const productList = useDeferredValue(products.data);
  const rowsQuery = {
    data: productList,
    isPending: products.isPending || (products.data !== undefined && productList === undefined),
    isError: products.isError,
    error: products.error,
    refetch: products.refetch,
  };
  const { company, isPending: companyPending } = useCompany();
  const [params, setParams] = useSearchParams();
  const selectedId = Number(params.get('product')) || null;
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [sort, setSort] = useState<SortState<Column>>({ key: 'name', direction: 'ascending' });
  const panelRef = useRef<HTMLDivElement>(null);
  // Below 'md' the panel sits under the table: bring it into view when a product is picked.
  const sideBySide = useMediaQuery('(min-width: 62em)', undefined, { getInitialValueInEffect: false });

  const scrollAfterPick = useScrollAfterPick(panelRef, selectedId);
  const select = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('product', String(id));
    setParams(next, { replace: true });
    if (!sideBySide) scrollAfterPick(id);
  };

  // One stable function for every row, so a row re-renders only when its own product or selection changes.
  const selectLatest = useRef(select);
  useLayoutEffect(() => {
    selectLatest.current = select;
  });
  const onSelect = useCallback((id: number) => selectLatest.current(id), []);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const matching = (productList ?? []).filter(
      (product) =>
        (!category || product.category === category) &&
        (!needle || product.name.toLowerCase().includes(needle) || product.subcategory.toLowerCase().includes(needle)),
    );
    return sortRows(matching, sort, valueOf, (product) => product.name);
  }, [productList, search, category, sort]);
  const onSort = (column: Column) => setSort((current) => nextSort(current, column, column === 'name' ? 'ascending' : 'descending'));

  return (
    <>
      <PageHeader
        title="Market"
        subtitle="Buy what your buildings need, sell what they make. Selling pays a little less than buying."
        actions={<CashBadge />}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm">
            <Group gap="sm" wrap="wrap">
              <TextInput
                placeholder="Search products..."
                aria-label="Search products"
                leftSection={<IconSearch size={16} aria-hidden />}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                style={{ flex: '1 1 200px' }}
              />
              <Select
                aria-label="Category"
                placeholder="All categories"
                data={[...PRODUCT_CATEGORIES]}
                value={category}
                onChange={setCategory}
                clearable
                style={{ flex: '0 1 220px' }}
              />
            </Group>
            <QueryState
              query={rowsQuery}
              loading={
                <Card withBorder padding={0} h={TABLE_HEIGHT}>
                  <Center h="100%">
                    <PageLoader label="Loading products..." />
                  </Center>
                </Card>
              }
            >
              {() =>
                shown.length === 0 ? (
                  <Text c="dimmed" ta="center" py="lg">
                    No products found in this category.
                  </Text>
                ) : (
                  <Card withBorder padding={0}>
                    <ScrollBox maxHeight={TABLE_HEIGHT} label="Products" scrollX>
                      <Table stickyHeader highlightOnHover verticalSpacing={6} className={classes.table} miw={560}>
                        <Table.Thead>
                          <Table.Tr>
                            <SortableTh column="name" sort={sort} onSort={onSort}>
                              Product
                            </SortableTh>
                            <SortableTh column="buy_price" sort={sort} onSort={onSort} align="right">
                              Buy
                            </SortableTh>
                            <SortableTh column="sell_price" sort={sort} onSort={onSort} align="right">
                              Sell
                            </SortableTh>
                            <SortableTh column="change_percent" sort={sort} onSort={onSort} align="right">
                              Week
                            </SortableTh>
                            <TrendTh />
                            <SortableTh column="held" sort={sort} onSort={onSort} align="right">
                              Held
                            </SortableTh>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {shown.map((product) => (
                            <MarketRow key={product.id} product={product} selected={product.id === selectedId} onSelect={onSelect} />
                          ))}
                        </Table.Tbody>
                      </Table>
                    </ScrollBox>
                  </Card>
                )
              }
            </QueryState>
            {/* Its line is there from the start, so the panel under it on a phone does not move. */}
            <Text size="sm" c="dimmed" mih="1lh">
              {productList && `${shown.length} of ${productList.length} products`}
            </Text>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <div ref={panelRef} className={classes.panel} data-picked={selectedId ? true : undefined}>
            {selectedId ? (
              <Suspense fallback={<PageLoader />}>
                <ProductPanel key={selectedId} productId={selectedId} cash={companyPending ? null : (company?.cash ?? 0)} onSelect={select} />
              </Suspense>
            ) : (
              <Card withBorder padding="xl">
                <Center>
                  <Stack align="center" gap="xs">
                    <IconShoppingCart size={40} color="var(--mantine-color-dimmed)" aria-hidden />
                    <Text c="dimmed" ta="center">
                      Select a product to trade it and see its prices and recipes.
                    </Text>
                  </Stack>
                </Center>
              </Card>
            )}
          </div>
        </Grid.Col>
      </Grid>
    </>
  );
}

/**
 * One product's row. The market lists all 304 products: rows are memoised and built from plain
 * elements styled by market.module.css rather than a Mantine component per line of text, which
 * cut the page's first render on a phone (docs/web.md, "First load"); the sparkline draws itself
 * when it comes near the screen (components/Sparkline.tsx).
 */
const MarketRow = memo(function MarketRow({ product, selected, onSelect }: { product: MarketProduct; selected: boolean; onSelect: (id: number) => void }) {
  const change = product.change_percent;
  return (
    <Table.Tr data-selected={selected || undefined} className={classes.row} data-testid="market-row" onClick={pickOnRowClick(() => onSelect(product.id))}>
      <Table.Td>
        <button type="button" onClick={() => onSelect(product.id)} aria-pressed={selected} className={classes.productButton}>
          <p className={classes.productName}>{product.name}</p>
          <p className={classes.productCategory}>{product.category}</p>
        </button>
      </Table.Td>
      <Table.Td ta="right">{formatMoney(product.buy_price)}</Table.Td>
      <Table.Td ta="right">{formatMoney(product.sell_price)}</Table.Td>
      <Table.Td ta="right">
        {change === null ? (
          <span className={classes.dimmed}>new</span>
        ) : (
          <span className={classes.change} data-direction={change > 0 ? 'up' : change < 0 ? 'down' : undefined}>
            {formatPercentChange(change)}
          </span>
        )}
      </Table.Td>
      <Table.Td>
        <Sparkline values={product.sparkline} label={`${product.name} price`} />
      </Table.Td>
      <Table.Td ta="right">{product.held > 0 ? product.held.toLocaleString('en-US') : '-'}</Table.Td>
    </Table.Tr>
  );
});

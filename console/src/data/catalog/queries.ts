import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../components/session';
import { type Answer, type Body, request } from '../api';
import { consoleKeys } from '../keys';
import { type RowOf, useKeysetList } from '../keyset';

/** A row of the catalog page: the product, its publisher's name and its SKU codes. */
export type ProductRow = RowOf<'/products'>;
export type ProductDetail = Answer<'/products/{productId}', 'get'>['data'];
export type Partner = Answer<'/partners', 'get'>['data'][number];
export type Stock = Answer<'/skus/{skuId}/stock', 'get'>['data'];
export type Allocation = RowOf<'/allocations'>;
/** An allocation's figures, as GET /availability gives them for its SKU. */
export type AllocationFigures = Allocation['figures'];
export type AllocationRequest = RowOf<'/allocations/requests'>;

/** The publishers the company is connected to, with their contracts' state. */
export function usePartners() {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.catalog.partners(environment),
    queryFn: async () => (await request('get', '/partners')).data,
  });
}

/** One SKU's availability now and its allocation over time. */
export function useStock(skuId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.catalog.stock(environment, skuId),
    queryFn: async () => (await request('get', '/skus/{skuId}/stock', { params: { skuId } })).data,
  });
}

/** The company's allocations with their figures. */
export function useAllocations() {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.allocations.list(environment), '/allocations', {
    moreLabel: 'More allocations',
  });
}

/** The company's requests for more keys, newest first. */
export function useAllocationRequests() {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.allocations.requests(environment), '/allocations/requests', {
    moreLabel: 'Older requests',
  });
}

/** Asks the publisher for more keys on a grant; its answer may come at once. */
export function useRequestIncrease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body<'/allocations/requests', 'post'>) =>
      (await request('post', '/allocations/requests', { body })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consoleKeys.allocations.all }),
  });
}

/** The products the publishers share with the company, filtered as the page's form says. */
export function useProducts(filter: URLSearchParams) {
  const { environment } = useSession();
  return useKeysetList(consoleKeys.catalog.products(environment, filter.toString()), '/products', {
    query: filter,
    moreLabel: 'More products',
  });
}

/** One product in the asked locale (or the company's preference). */
export function useProduct(productId: string, locale: string | null) {
  const { environment } = useSession();
  return useQuery({
    queryKey: consoleKeys.catalog.product(environment, productId, locale),
    queryFn: async () =>
      (
        await request('get', '/products/{productId}', {
          params: { productId },
          query: locale ? { locale } : {},
        })
      ).data,
  });
}

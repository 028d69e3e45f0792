import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { nextPageUrl, page } from '../../http/pagination.js';
import { Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import {
  listProducts,
  localeChain,
  ProductDetailResponse,
  ProductListQuerystring,
  parseProductQuery,
  productDetail,
} from '../catalog/index.js';
import { listPartners, PartnerSchema } from '../partners/index.js';
import { ConsoleProductList, consoleAnswer, consoleData } from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSellerSession } from './console-http.js';
import { withPublisherAndSkus } from './console-product-rows.js';

const open = { config: { auth: 'none' } } as const;
const { q, partner, status, locale, limit, cursor } = ProductListQuerystring.properties;

/** The catalog pages: the seller API's product and partner reads, as the signed-in user's company. */
export function registerConsoleCatalogRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    `${CONSOLE_API}/products`,
    {
      ...open,
      schema: {
        ...consoleAnswer(ConsoleProductList),
        querystring: Type.Object(
          {
            q: Type.Optional(q),
            partner: Type.Optional(partner),
            status: Type.Optional(status),
            locale: Type.Optional(locale),
            limit,
            cursor: Type.Optional(cursor),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { seller: scope } = await requireSellerSession(ctx, request);
      const query = parseProductQuery(request.query, request.headers['accept-language']);
      const rows = query.statusExcludesAll ? [] : await listProducts(ctx, scope, query.list);
      const result = page(rows, query.list.limit, (r) => r.cursorKey, nextPageUrl(request.url));
      return {
        data: await withPublisherAndSkus(
          ctx,
          result.data.map(({ cursorKey: _key, ...row }) => row),
        ),
        meta: { ...result.meta, localePreference: query.list.chain },
      };
    },
  );

  app.get(
    `${CONSOLE_API}/products/:productId`,
    {
      ...open,
      schema: {
        ...consoleAnswer(ProductDetailResponse),
        params: Type.Object({ productId: Uuid }),
        querystring: Type.Object({ locale: Type.Optional(locale) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const { seller: scope } = await requireSellerSession(ctx, request);
      const chain = localeChain(request.query.locale, request.headers['accept-language']);
      return productDetail(ctx, scope, request.params.productId, chain, false);
    },
  );

  app.get(
    `${CONSOLE_API}/partners`,
    { ...open, schema: { ...consoleData(Type.Array(PartnerSchema)) } },
    async (request) => {
      const { sellerId, environment } = (await requireSellerSession(ctx, request)).seller;
      return { data: await listPartners(ctx, sellerId, environment) };
    },
  );
}

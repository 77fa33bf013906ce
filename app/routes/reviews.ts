import type { Route } from "./+types/reviews";
import { storefrontStateContext } from "../market/request-context";
import { cachedReviewData, productReviewsData, ratingSummariesData, reviewCacheMs } from "../reviews/review-section.server";
import { store } from "../store/store.server";
import { isProductId } from "../catalog/catalog.server";

/**
 * The published reviews of one product (`/reviews/de/collagen`), or the rating summaries of every
 * product (`/reviews/de`), as JSON for the market of the path (decision record 0022).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { market } = context.get(storefrontStateContext);
  const { settings, db } = store();
  const includeTest = settings.storeMode === "test";
  // Browsers ask again on every page (a decision shows at the next view); a shared cache may keep it as long as the server does.
  const headers = { "Cache-Control": `public, max-age=0, s-maxage=${reviewCacheMs / 1000}` };
  if (params.product === undefined) {
    const data = await cachedReviewData(`${market.country}:*:${includeTest}`, () => ratingSummariesData(db, market, includeTest));
    return Response.json(data, { headers });
  }
  if (!isProductId(params.product)) return Response.json({ error: "unknown product" }, { status: 404, headers });
  const product = params.product;
  const data = await cachedReviewData(`${market.country}:${product}:${includeTest}`, () => productReviewsData(db, market, product, includeTest));
  return Response.json(data, { headers });
}

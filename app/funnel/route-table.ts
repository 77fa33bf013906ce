import providerReturnPages from "../../content/commerce/provider-return-pages.json";

/**
 * The route table (decision 1), one row per plain route. Everything else about
 * routing — `routes.ts`, the path builders, `<html data-route data-layout>` and the route tests —
 * is derived from it, so a reader finds every route, its layout and its page in one place.
 *
 * Every row also has a twin with a trailing segment: `/:locale` unless `twin` says otherwise.
 */

export const layoutNames = [
  "default",
  "offer",
  "offer-advertorial",
  "offer2",
  "lionoffer",
  "empty",
  "none",
  "quiz",
  "thank-you",
] as const;
export type LayoutName = (typeof layoutNames)[number];

/** Page modules under `app/routes/`: each is one template configured per route. */
export type PageKind =
  | "home"
  | "offer"
  | "quiz"
  | "summary"
  | "upsell"
  | "thank-you"
  | "payment-return"
  | "refund"
  | "terms"
  | "feedback"
  | "product"
  | "add-app"
  | "checkout"
  | "withdraw"
  | "review"
  | "review-policy";

interface RouteRow {
  readonly path: `/${string}`;
  readonly layout: LayoutName;
  readonly page: PageKind;
  /** The twin's trailing segment; `locale` when absent. */
  readonly twin?: "from" | "none";
  /** Rendered for each request even with a locale: the page holds a form token or personal data. */
  readonly perRequest?: true;
}

export const routeRows = [
  { path: "/", layout: "default", page: "home" },

  { path: "/1get", layout: "offer", page: "offer" },
  { path: "/6offer", layout: "offer", page: "offer" },
  { path: "/buy", layout: "offer", page: "offer" },
  { path: "/get", layout: "offer", page: "offer" },
  { path: "/offer", layout: "offer", page: "offer" },
  { path: "/offer2month5", layout: "offer", page: "offer" },
  { path: "/offerback", layout: "offer", page: "offer" },
  { path: "/offerbuy", layout: "offer", page: "offer" },
  { path: "/offercoll", layout: "offer", page: "offer" },
  { path: "/offerexitpop", layout: "offer", page: "offer" },
  { path: "/offerg", layout: "offer", page: "offer" },
  { path: "/offericons", layout: "offer", page: "offer" },
  { path: "/offerrecom", layout: "offer", page: "offer" },
  { path: "/offersalt", layout: "offer", page: "offer" },
  // No locale variant is listed for /offerthanks (decision 41: /offerthanks/fr is a 404).
  { path: "/offerthanks", layout: "offer", page: "thank-you", twin: "none" },
  { path: "/offerup", layout: "offer", page: "offer" },
  { path: "/offerV4", layout: "offer", page: "offer" },
  { path: "/offerV7", layout: "offer", page: "offer" },
  { path: "/v8offer", layout: "offer", page: "offer" },
  { path: "/take", layout: "offer", page: "offer" },
  // Names that had no route of their own (decision 41).
  { path: "/take3", layout: "offer", page: "offer" },
  { path: "/offera", layout: "offer", page: "offer" },
  { path: "/offerip", layout: "offer", page: "offer" },

  { path: "/offer2", layout: "offer-advertorial", page: "offer" },
  { path: "/take2", layout: "offer2", page: "offer" },
  { path: "/lionoffer", layout: "lionoffer", page: "offer" },

  { path: "/collagen-upsell", layout: "empty", page: "upsell" },
  { path: "/detolex-upsell", layout: "empty", page: "upsell" },
  { path: "/feedback", layout: "empty", page: "feedback" },
  { path: "/fibergum", layout: "empty", page: "product" },
  { path: "/hypnotherapy", layout: "empty", page: "product" },
  { path: "/hypnotherapyy", layout: "empty", page: "product" },
  { path: "/refund", layout: "empty", page: "refund" },
  { path: "/terms", layout: "empty", page: "terms" },
  { path: "/upsell", layout: "empty", page: "upsell" },
  { path: "/upsellfat", layout: "empty", page: "upsell" },
  { path: "/upsellMind", layout: "empty", page: "upsell" },
  { path: "/v8", layout: "empty", page: "product" },

  { path: "/addapp", layout: "none", page: "add-app" },

  { path: "/summary", layout: "quiz", page: "summary" },
  // Names that had no route of their own (decision 41).
  { path: "/summarypop", layout: "quiz", page: "summary" },
  { path: "/v1ip-summary", layout: "quiz", page: "summary" },
  { path: "/v1", layout: "quiz", page: "quiz" },
  { path: "/v1ip", layout: "quiz", page: "quiz" },
  { path: "/v2", layout: "quiz", page: "quiz" },
  { path: "/v3", layout: "quiz", page: "quiz" },
  { path: "/v31", layout: "quiz", page: "quiz" },
  { path: "/v4", layout: "quiz", page: "quiz" },
  { path: "/v5", layout: "quiz", page: "quiz" },
  { path: "/v6", layout: "quiz", page: "quiz" },
  { path: "/v7", layout: "quiz", page: "quiz" },
  { path: "/v9", layout: "quiz", page: "quiz" },
  { path: "/v10", layout: "quiz", page: "quiz" },
  { path: "/vsalt", layout: "quiz", page: "quiz" },

  { path: "/thankyou", layout: "thank-you", page: "thank-you" },

  // Commerce (decision 42): the checkout and the withdrawal function of Directive (EU) 2023/2673.
  { path: "/checkout", layout: "default", page: "checkout", perRequest: true },
  { path: "/withdraw", layout: "default", page: "withdraw" },
  // Verified-buyer reviews: the form an invitation e-mail links to, and how reviews are checked.
  { path: "/review", layout: "default", page: "review", perRequest: true },
  { path: "/review-policy", layout: "default", page: "review-policy" },
] as const satisfies readonly RouteRow[];

/**
 * The pages a payment provider's own pages send the buyer back to, one per provider that has one
 * (`content/commerce/provider-return-pages.json`, which the provider's return address is built from
 * too): `/<page>/:from`, where `from` names the funnel step the buyer continues to. A page stays as
 * long as orders in flight may come back to it.
 */
export const paymentReturnRows: readonly RouteRow[] = Object.values(providerReturnPages as Readonly<Record<string, string>>).map((path) => ({
  path: path as `/${string}`,
  layout: "empty",
  page: "payment-return",
  twin: "from",
}));

type Row = (typeof routeRows)[number];
type PlainNameOf<P extends string> = P extends "/" ? "index" : P extends `/${infer N}` ? N : never;
/** `/x/:locale` is `x-2`, except `/get/:locale`, which is named `get2` (decision 41). */
type TwinNameOf<N extends string> = N extends "get" ? "get2" : `${N}-2`;

type TwinRow = Exclude<Row, { twin: "none" }>;
export type PlainRouteName = PlainNameOf<Row["path"]>;
export type TwinRouteName = TwinNameOf<PlainNameOf<TwinRow["path"]>>;
export type RouteName = PlainRouteName | TwinRouteName;

export interface RouteEntry {
  /**
   * Used by the order button, the footer and `data-route`; also the React Router route id. A
   * `RouteName`, or a provider's return page's name (`paymentReturnRows`), which only the content knows.
   */
  readonly name: string;
  /** React Router path pattern, e.g. `/offer/:locale`. */
  readonly pattern: string;
  readonly layout: LayoutName;
  readonly page: PageKind;
  /** The parameter that the trailing segment carries, if any. */
  readonly param: "locale" | "from" | null;
  /** The path of the row without its trailing segment (`/offer` for `/offer/:locale`). */
  readonly plainPath: string;
  /** Whether the row exists once per market (`/offer/:locale`). */
  readonly hasLocaleTwin: boolean;
  /** Whether its locale twin is prerendered (false for pages with form tokens or personal data). */
  readonly prerendered: boolean;
}

function plainName(path: string): PlainRouteName {
  return (path === "/" ? "index" : path.slice(1)) as PlainRouteName;
}

/** The name of a row's twin: `offer` → `offer-2`, `get` → `get2`. */
export function twinName(plain: PlainRouteName): TwinRouteName {
  return (plain === "get" ? "get2" : `${plain}-2`) as TwinRouteName;
}

export const routeEntries: readonly RouteEntry[] = [...routeRows, ...paymentReturnRows].flatMap((row: RouteRow) => {
  const name = plainName(row.path);
  const param = row.twin === "none" ? null : (row.twin ?? "locale");
  const plain: RouteEntry = {
    name,
    pattern: row.path,
    layout: row.layout,
    page: row.page,
    param: null,
    plainPath: row.path,
    hasLocaleTwin: param === "locale",
    prerendered: false,
  };
  if (param === null) return [plain];
  const pattern = row.path === "/" ? `/:${param}` : `${row.path}/:${param}`;
  return [plain, { ...plain, name: twinName(name), pattern, param, prerendered: param === "locale" && !row.perRequest }];
});

const entriesByName = new Map<string, RouteEntry>(routeEntries.map((entry) => [entry.name, entry]));

export function findRouteEntry(name: string): RouteEntry | undefined {
  return entriesByName.get(name);
}

export function isRouteName(name: string): name is RouteName {
  return entriesByName.has(name);
}

import { createContext } from "react-router";
import type { StorefrontState } from "./storefront-context";

/** The storefront state resolved once per request by the root middleware, for every loader. */
export const storefrontStateContext = createContext<StorefrontState>();

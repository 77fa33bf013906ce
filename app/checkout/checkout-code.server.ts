import { normalizeCode, smallestLinesFor } from "../codes/code-terms";
import { findCode } from "../codes/codes.server";
import type { Queryable } from "../db/database.server";
import { formatMoney } from "../market/money";
import type { Market } from "../market/markets";
import { assessCode } from "../orders/code-redemptions.server";
import type { CommerceTexts } from "../orders/commerce-texts.server";
import { discountedQuote, type Quote } from "../orders/quote.server";

/** A code typed at the checkout: the quote it gives, or why it gives none, in the buyer's words. */
export type CodeQuote = { quote: Quote; code: string; refusal: null } | { quote: Quote; code: ""; refusal: string };

/**
 * The checkout's quote with the code the buyer typed, assessed for this buyer (the e-mail may still
 * be empty: it is checked again, under the code's lock, when the order is placed). The quote without
 * a code is never changed elsewhere: a code is a personal reduction, not a price.
 */
export async function quoteWithCode(db: Queryable, market: Market, quote: Quote, typed: string, email: string, texts: CommerceTexts["checkout"]["code"], now: Date): Promise<CodeQuote> {
  const code = normalizeCode(typed);
  if (!code) return { quote, code: "", refusal: texts.refusals.unknown };
  const linesMinor = quote.lines.reduce((sum, line) => sum + line.grossMinor, 0);
  const assessed = await assessCode(db, { code, email, country: market.country, currency: market.currency, linesMinor, now });
  if (assessed.ok) return { quote: discountedQuote(market, quote, { code: assessed.code, discountMinor: assessed.discountMinor }), code: assessed.code, refusal: null };
  if (assessed.refusal !== "minimum") return { quote, code: "", refusal: texts.refusals[assessed.refusal] };
  const terms = await findCode(db, code);
  const minimumMinor = terms ? smallestLinesFor(terms, market.currency) : 0;
  return { quote, code: "", refusal: texts.refusals.minimum.replace("{minimum}", formatMoney(minimumMinor, market)) };
}

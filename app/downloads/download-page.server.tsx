import { renderToStaticMarkup } from "react-dom/server";
import contact from "../../content/contact.json";
import site from "../../content/site.json";
import { formatMessage, mailTextsFor } from "../mail/mail-texts.server";
import { markets, type Market } from "../market/markets";

/**
 * The page a download link shows instead of the file (expired, used up, revoked, altered, too many
 * at once): in the buyer's language, saying which and how to get a new link. Plain HTML without
 * a script: it must not cost the storefront's budget, and there is nothing to do on it but read.
 */
export type DownloadRefusal = "expired" | "used_up" | "revoked" | "altered" | "limited" | "unavailable";

const statusOf: Record<DownloadRefusal, number> = { expired: 410, used_up: 410, revoked: 410, altered: 404, limited: 429, unavailable: 503 };

const keysOf = {
  expired: ["expiredTitle", "expiredText", "newLink"],
  used_up: ["usedUpTitle", "usedUpText", "newLink"],
  revoked: ["revokedTitle", "revokedText", "mistake"],
  altered: ["alteredTitle", "alteredText", "newLink"],
  limited: ["limitedTitle", "limitedText", null],
  unavailable: ["unavailableTitle", "unavailableText", null],
} as const;

/** The market whose language the visitor's browser asks for first; English when none is ours. */
export function marketForAcceptLanguage(header: string | null): Market {
  const english = markets.find((market) => market.locale === "en_GB") as Market;
  const tags = (header ?? "")
    .split(",")
    .map((part) => part.split(";")[0]?.trim().toLowerCase() ?? "")
    .filter(Boolean);
  for (const tag of tags) {
    const exact = markets.find((market) => market.languageTag.toLowerCase() === tag);
    if (exact) return exact;
    const language = markets.find((market) => market.languageTag.toLowerCase().split("-")[0] === tag.split("-")[0]);
    if (language) return language;
  }
  return english;
}

const styles = "body{font:16px/1.5 system-ui,sans-serif;color:#1d2b24;max-width:36rem;margin:3rem auto;padding:0 1rem}h1{font-size:1.4rem}p.brand{font-weight:700;color:#2f6b4f}";

export function downloadRefusalPage(refusal: DownloadRefusal, market: Market, orderNumber: string | null, headers: Record<string, string> = {}): Response {
  const texts = mailTextsFor(market.locale).downloadPage;
  const [titleKey, textKey, helpKey] = keysOf[refusal];
  const format = (message: string) => formatMessage(message, market.languageTag, { email: contact.email, number: orderNumber ?? "none", brand: site.brand });
  const title = texts[titleKey];
  const html = renderToStaticMarkup(
    <html lang={market.languageTag}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} – ${site.brand}`}</title>
        <style>{styles}</style>
      </head>
      <body>
        <main data-testid="download-refused" data-reason={refusal}>
          <p className="brand">{site.brand}</p>
          <h1>{title}</h1>
          <p>{texts[textKey]}</p>
          {helpKey ? <p>{format(texts[helpKey])}</p> : null}
        </main>
      </body>
    </html>,
  );
  return new Response(`<!DOCTYPE html>${html}`, {
    status: statusOf[refusal],
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      ...headers,
    },
  });
}

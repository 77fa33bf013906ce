import { IntlMessageFormat } from "intl-messageformat";
import type { RouterContextProvider } from "react-router";
import { offerForRoute, productNameIn } from "../catalog/catalog.server";
import { funnelTextsFor, productTextFor, quizzes } from "../funnel/content.server";
import { formatMoney } from "../market/money";
import { storefrontStateContext } from "../market/request-context";
import { standardDeliveryMinor } from "../orders/commerce-content.server";
import { catalogProduct, landing, landingTextsFor } from "./landing-content.server";
import type { LandingView } from "./landing-view";

interface LoaderArgs {
  context: Readonly<RouterContextProvider>;
}

function format(message: string, languageTag: string, values: Record<string, string | number>): string {
  return String(new IntlMessageFormat(message, languageTag).format(values));
}

/**
 * The landing page of a market, all from content: its words, the range with each product's
 * tagline and food-supplement particulars, the offer the order button leads to (take-2,
 * decision 41), the guarantee, delivery and payment notes. Messages are formatted here,
 * so the browser receives plain text.
 */
export function loadLandingPage({ context }: LoaderArgs): LandingView {
  const { lang, market } = context.get(storefrontStateContext);
  const texts = landingTextsFor(lang);
  const sections = funnelTextsFor(lang).offerSections;
  const deliveryMinor = standardDeliveryMinor(market);
  const questions = quizzes.variants[landing.quiz]?.length ?? 0;
  // The order button leads to take-2 (decision 41): the first product of its offer is the hero.
  const hero = offerForRoute("take", market.currency, new Date(), lang).lines[0];
  if (!hero) throw new Error("The offer of take has no bundle");
  return {
    title: texts.title,
    heading: texts.heading,
    intro: texts.intro,
    quiz: { route: landing.quiz, cta: texts.quiz.cta, note: format(texts.quiz.note, market.languageTag, { questions }) },
    offer: { cta: texts.offer.cta, productName: hero.productName, image: hero.image },
    range: {
      heading: texts.range.heading,
      intro: texts.range.intro,
      supplement: texts.range.supplement,
      details: texts.range.details,
      ingredientsTitle: sections.ingredientsTitle,
      particularsTitle: sections.particularsTitle,
      products: landing.range.map(({ product: id, offer }) => {
        const product = catalogProduct(id);
        const words = productTextFor(lang, id);
        return {
          id,
          name: productNameIn(lang, id),
          image: product.image,
          route: offer,
          tagline: words.tagline,
          ingredients: words.ingredients,
          particulars: words.particulars,
        };
      }),
    },
    notes: {
      guarantee: { title: sections.guaranteeTitle, text: sections.guaranteeText },
      delivery: {
        title: deliveryMinor === 0 ? texts.delivery.freeTitle : format(texts.delivery.chargedTitle, market.languageTag, { price: formatMoney(deliveryMinor, market) }),
        text: texts.delivery.text,
      },
      payment: texts.payment,
    },
    closing: texts.closing,
  };
}

import type { ProductText } from "../funnel/content-schema";
import { ProductReviewsSlot } from "../reviews/product-reviews-slot";
import { GuaranteeNote } from "./guarantee-note";
import { SupplementParticulars } from "./supplement-particulars";

export interface OfferSectionTitles {
  benefitsTitle: string;
  howToUseTitle: string;
  ingredientsTitle: string;
  particularsTitle: string;
  faqTitle: string;
  guaranteeTitle: string;
  guaranteeText: string;
}

/**
 * What an offer page says about its product, all from content: benefits (authorised claims
 * only), how to use it, ingredients and the mandatory food-supplement particulars (shown before
 * purchase), the published reviews of verified buyers (when there are any), FAQ and the guarantee.
 */
export function OfferSections({ product, titles, reviewsFor }: { product: ProductText; titles: OfferSectionTitles; reviewsFor?: string }) {
  const particulars = product.particulars;
  return (
    <div className="offer-sections">
      <section aria-labelledby="benefits-title">
        <h2 id="benefits-title">{titles.benefitsTitle}</h2>
        <p>{product.tagline}</p>
        <ul className="offer-sections__benefits">
          {product.benefits.map((benefit) => (
            <li key={benefit}>{benefit}</li>
          ))}
        </ul>
        {product.description.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </section>
      <section aria-labelledby="how-to-use-title">
        <h2 id="how-to-use-title">{titles.howToUseTitle}</h2>
        <p>{product.howToUse}</p>
      </section>
      <section aria-labelledby="ingredients-title">
        <h2 id="ingredients-title">{titles.ingredientsTitle}</h2>
        <p>{product.ingredients}</p>
        {particulars ? (
          <>
            <h3>{titles.particularsTitle}</h3>
            <SupplementParticulars particulars={particulars} className="offer-sections__particulars" testId="particulars" />
          </>
        ) : null}
      </section>
      {reviewsFor ? <ProductReviewsSlot productId={reviewsFor} /> : null}
      <section aria-labelledby="faq-title">
        <h2 id="faq-title">{titles.faqTitle}</h2>
        {product.faq.map((item) => (
          <details key={item.question} className="offer-sections__faq">
            <summary>{item.question}</summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </section>
      <GuaranteeNote title={titles.guaranteeTitle} text={titles.guaranteeText} />
    </div>
  );
}

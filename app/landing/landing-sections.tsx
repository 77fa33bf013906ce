import { GuaranteeNote } from "../offer/guarantee-note";
import { SupplementParticulars } from "../offer/supplement-particulars";
import { NextStepLink } from "../chrome/next-step-link";
import { PaymentMethods } from "../chrome/payment-and-delivery";
import { FunnelLink } from "../funnel/funnel-link";
import { useLocalizedPath } from "../funnel/localized-path";
import { StoreImage } from "../image/store-image";
import type { LandingProduct, LandingView } from "./landing-view";

function ProductCard({ product, range }: { product: LandingProduct; range: LandingView["range"] }) {
  const offerPath = useLocalizedPath(product.route);
  return (
    <li className="landing-product" data-testid="landing-product">
      <StoreImage className="landing-product__image" src={`${product.image}.svg`} preset="packshot" sizes="xs:80px md:160px" alt="" />
      <div className="landing-product__body">
        {product.particulars ? <p className="landing-product__kind">{range.supplement}</p> : null}
        <h3 className="landing-product__name">
          <FunnelLink to={offerPath}>{product.name}</FunnelLink>
        </h3>
        <p className="landing-product__tagline">{product.tagline}</p>
      </div>
      {product.particulars ? (
        <details className="landing-product__details">
          <summary>{range.details}</summary>
          <p className="landing-product__label">{range.ingredientsTitle}</p>
          <p>{product.ingredients}</p>
          <p className="landing-product__label">{range.particularsTitle}</p>
          <SupplementParticulars particulars={product.particulars} className="landing-product__particulars" testId="landing-particulars" />
        </details>
      ) : null}
    </li>
  );
}

/** Below the first screen: the range, the guarantee, delivery and payment notes, and a last way into the quiz. */
export function LandingSections({ view }: { view: LandingView }) {
  const { range, notes, closing } = view;
  return (
    <>
      <section className="landing-range" aria-labelledby="landing-range-heading" data-testid="landing-range">
        <h2 id="landing-range-heading">{range.heading}</h2>
        <p className="landing-range__intro">{range.intro}</p>
        <ul className="landing-range__list">
          {range.products.map((product) => (
            <ProductCard key={product.id} product={product} range={range} />
          ))}
        </ul>
      </section>
      <div className="landing-notes" data-testid="landing-notes">
        <GuaranteeNote title={notes.guarantee.title} text={notes.guarantee.text} />
        <section className="landing-notes__note" aria-labelledby="landing-delivery-title">
          <h2 id="landing-delivery-title">{notes.delivery.title}</h2>
          <p>{notes.delivery.text}</p>
        </section>
        <section className="landing-notes__note" aria-labelledby="landing-payment-title">
          <h2 id="landing-payment-title">{notes.payment.title}</h2>
          <p>{notes.payment.text}</p>
          <PaymentMethods testId="landing-payment-methods" />
        </section>
      </div>
      <section className="landing-closing" aria-labelledby="landing-closing-heading">
        <h2 id="landing-closing-heading">{closing.heading}</h2>
        <p>{closing.text}</p>
        <NextStepLink to={view.quiz.route} label={view.quiz.cta} testId="landing-quiz-end" />
      </section>
    </>
  );
}

import { Suspense, type ReactNode } from "react";
import { DocumentMeta } from "../market/document-meta";
import { NextStepLink } from "../chrome/next-step-link";
import { OrderNowButton } from "../chrome/order-now-button";
import { StoreImage } from "../image/store-image";
import { deferredComponent } from "../platform/deferred-component";
import type { LandingView } from "./landing-view";

// The range, the notes and the closing call fill the page below the first screen: their code
// loads next to hydration instead of before it, and the server's HTML stays in place meanwhile.
const LandingSections = deferredComponent(() => import("./landing-sections").then((module) => module.LandingSections));

export interface LandingPageProps {
  view: LandingView;
  /** The verified rating summary, shown under the calls to action once there is one. */
  ratingSummary?: ReactNode;
}

/** The landing page: the way into the quiz and to the current offer, then the range and what a buyer can count on. */
export function LandingPage({ view, ratingSummary }: LandingPageProps) {
  return (
    <>
      <section className="landing-hero" aria-labelledby="landing-heading">
        <DocumentMeta title={view.title} />
        <div className="landing-hero__text">
          <h1 id="landing-heading">{view.heading}</h1>
          <p className="page-intro__lead">{view.intro}</p>
          <div className="landing-hero__actions">
            <NextStepLink to={view.quiz.route} label={view.quiz.cta} testId="landing-quiz" />
            <OrderNowButton label={view.offer.cta} />
          </div>
          <p className="landing-hero__note">{view.quiz.note}</p>
          {ratingSummary ? <div className="landing-hero__rating">{ratingSummary}</div> : null}
        </div>
        <StoreImage className="landing-hero__image" src={`${view.offer.image}.svg`} preset="hero" sizes="xs:224px md:256px" alt={view.offer.productName} priority />
      </section>
      <Suspense fallback={null}>
        <LandingSections view={view} />
      </Suspense>
    </>
  );
}

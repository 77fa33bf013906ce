import { useMemo } from "react";
import { sessionStore } from "../../platform/browser-storage";
import { useTranslate } from "../../market/translate";
import { useCarriedSearch, useHydrated } from "../carried-search";
import { FunnelLink } from "../funnel-link";
import { useLocalizedPath } from "../localized-path";
import { readResult } from "./quiz-model";

export interface SummaryTexts {
  results: Record<string, { heading: string; text: string }>;
  tips: Record<string, string>;
}

export interface OfferedProduct {
  name: string;
  tagline: string;
}

/** What the order-now button's offer sells, per `src`, and the product each goal's text names. */
export interface SummaryOffer {
  products: Record<string, OfferedProduct>;
  bySrc: Record<string, string>;
  goalProducts: Record<string, string>;
}


/**
 * The visitor's result, drawn from the answers kept in this browser session: the goal, a tip per
 * habit, and the product the next page sells. A goal's text that names another product is left
 * out: the quiz recommends only what its offer sells. A suggestion, never a diagnosis; the space
 * is reserved so nothing shifts.
 */
export function SummaryResult({ texts, offered }: { texts: SummaryTexts; offered: SummaryOffer }) {
  const t = useTranslate();
  const hydrated = useHydrated();
  const src = new URLSearchParams(useCarriedSearch()).get("src") ?? "";
  const soldId = offered.bySrc[src] ?? offered.bySrc[""];
  const sold = soldId ? offered.products[soldId] : undefined;
  const quizPath = useLocalizedPath("v1");
  const result = useMemo(
    () => (hydrated ? readResult(sessionStore(), Object.keys(texts.results), Object.keys(texts.tips)) : undefined),
    [hydrated, texts],
  );
  const goal = result?.goal ? texts.results[result.goal] : undefined;
  const goalNamesSold = result?.goal !== undefined && offered.goalProducts[result.goal] === soldId;
  return (
    <div className="summary-result" data-testid="summary-result" aria-live="polite">
      {result === null ? (
        <p>
          {t("summary.noAnswers")} <FunnelLink to={quizPath}>{t("summary.startQuiz")}</FunnelLink>
        </p>
      ) : null}
      {goal ? (
        <>
          <h2>{goal.heading}</h2>
          {goalNamesSold ? <p>{goal.text}</p> : null}
        </>
      ) : null}
      {result && sold ? (
        <div className="summary-result__offer" data-testid="summary-offer">
          <p>
            <strong>{t("summary.offerProduct", { product: sold.name })}</strong>
          </p>
          <p>{sold.tagline}</p>
        </div>
      ) : null}
      {result && result.habits.length > 0 ? (
        <>
          <h3>{t("summary.tipsTitle")}</h3>
          <ul className="summary-result__tips">
            {result.habits.map((habit) => (
              <li key={habit}>{texts.tips[habit]}</li>
            ))}
          </ul>
        </>
      ) : null}
      {result ? <p className="summary-result__note">{t("summary.disclaimer")}</p> : null}
    </div>
  );
}

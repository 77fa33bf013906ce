import { useMemo } from "react";
import { sessionStore } from "../../platform/browser-storage";
import { useTranslate } from "../../market/translate";
import { useHydrated } from "../carried-search";
import { FunnelLink } from "../funnel-link";
import { useLocalizedPath } from "../localized-path";
import { readResult } from "./quiz-model";

export interface SummaryTexts {
  results: Record<string, { heading: string; text: string }>;
  tips: Record<string, string>;
}


/**
 * The visitor's result, drawn from the answers kept in this browser session: the goal's text and
 * a tip per habit. A suggestion, never a diagnosis; the space is reserved so nothing shifts.
 */
export function SummaryResult({ texts }: { texts: SummaryTexts }) {
  const t = useTranslate();
  const hydrated = useHydrated();
  const quizPath = useLocalizedPath("v1");
  const result = useMemo(
    () => (hydrated ? readResult(sessionStore(), Object.keys(texts.results), Object.keys(texts.tips)) : undefined),
    [hydrated, texts],
  );
  const goal = result?.goal ? texts.results[result.goal] : undefined;
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
          <p>{goal.text}</p>
        </>
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

import { NextStepLink } from "../chrome/next-step-link";
import { PageIntro } from "../chrome/page-intro";
import { useTranslate } from "../market/translate";

export default function QuizPage() {
  const t = useTranslate();
  return (
    <PageIntro messagePrefix="pages.quiz">
      <NextStepLink to="summary" label={t("common.continue")} testId="next-step" />
    </PageIntro>
  );
}

import { useLoaderData, useParams } from "react-router";
import type { Route } from "./+types/quiz";
import { quizzes, funnelTextsFor } from "../funnel/content.server";
import { QuizFlow, type QuizQuestionView } from "../funnel/quiz/quiz-flow";
import { unitSystemFor } from "../funnel/quiz/quiz-model";
import { routePath } from "../funnel/paths";
import { routeEntryForPath } from "../funnel/route-for-path";
import { storefrontStateContext } from "../market/request-context";
import { DocumentMeta } from "../market/document-meta";

export function loader({ request, context }: Route.LoaderArgs) {
  const state = context.get(storefrontStateContext);
  const entry = routeEntryForPath(new URL(request.url).pathname);
  const variant = entry?.plainPath.slice(1) ?? "v1";
  const texts = funnelTextsFor(state.lang);
  const questions = (quizzes.variants[variant] ?? []).map((id): QuizQuestionView => {
    const definition = quizzes.questions[id];
    const text = texts.questions[id];
    if (!definition || !text) throw new Error(`Quiz ${variant} asks for unknown question ${id}`);
    return { id, ...definition, title: text.title, hint: text.hint, optionLabels: text.options } as QuizQuestionView;
  });
  const summary = variant === "v1ip" ? "v1ip-summary" : "summary";
  return {
    heading: texts.variants[variant] ?? { title: "", intro: "" },
    quiz: { variant, questions, unitSystem: unitSystemFor(state.country), summary },
  };
}

export default function QuizPage() {
  const { heading, quiz } = useLoaderData<typeof loader>();
  const { locale } = useParams();
  const summaryPath = locale
    ? routePath(quiz.summary === "summary" ? "summary-2" : "v1ip-summary-2", locale.toLowerCase())
    : routePath(quiz.summary === "summary" ? "summary" : "v1ip-summary");
  return (
    <section className="page-intro">
      <DocumentMeta title={heading.title} />
      <h1>{heading.title}</h1>
      <p className="page-intro__lead">{heading.intro}</p>
      <QuizFlow quiz={{ ...quiz, summaryPath }} />
    </section>
  );
}

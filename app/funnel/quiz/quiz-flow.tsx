import { memo, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { sessionStore } from "../../platform/browser-storage";
import { useLocation } from "react-router";
import { useTranslate } from "../../market/translate";
import { useHydrated } from "../carried-search";
import { useNavigateTo } from "../navigate";
import {
  fromMetric,
  numberFields,
  readProgress,
  toMetric,
  writeProgress,
  writeResult,
  type Answer,
  type Answers,
  type QuestionDefinition,
  type QuizProgress,
  type UnitSystem,
} from "./quiz-model";

export type QuizQuestionView = QuestionDefinition & { title: string; hint: string; optionLabels: Record<string, string> };

export interface QuizView {
  variant: string;
  questions: QuizQuestionView[];
  unitSystem: UnitSystem;
  /** Where the finished quiz leads, `src={variant}` added to the query. */
  summaryPath: string;
}


function initialValues(question: QuizQuestionView, answer: Answer | undefined, system: UnitSystem): string[] {
  if (question.type !== "number") return [];
  return typeof answer === "number" ? fromMetric(question.measure, system, answer) : numberFields(question.measure, system).map(() => "");
}

/**
 * Renders again only on its own state or new props: right after hydration `QuizFlow` renders once
 * more (synchronously, to look for stored progress), and a visitor with nothing stored keeps the
 * same question without the form being rendered a second time in that task.
 */
const QuizSteps = memo(function QuizSteps({ quiz, initial }: { quiz: QuizView; initial: QuizProgress }) {
  const t = useTranslate();
  const navigateTo = useNavigateTo();
  const { search } = useLocation();
  const [progress, setProgress] = useState(initial);
  const question = quiz.questions[progress.step] as QuizQuestionView;
  const [values, setValues] = useState<string[]>(() => initialValues(question, initial.answers[question.id], quiz.unitSystem));
  const [choice, setChoice] = useState<string[]>(() => {
    const answer = initial.answers[question.id];
    return typeof answer === "string" ? [answer] : Array.isArray(answer) ? answer : [];
  });
  const [error, setError] = useState<{ message: string; field: number } | null>(null);
  const legend = useRef<HTMLLegendElement>(null);
  const baseId = useId();
  const errorId = `${baseId}-error`;
  const total = quiz.questions.length;
  const isLast = progress.step === total - 1;

  const goTo = (step: number, answers: Answers) => {
    const next = quiz.questions[step] as QuizQuestionView;
    const answer = answers[next.id];
    setProgress({ answers, step });
    writeProgress(sessionStore(), quiz.variant, { answers, step });
    setValues(initialValues(next, answer, quiz.unitSystem));
    setChoice(typeof answer === "string" ? [answer] : Array.isArray(answer) ? answer : []);
    setError(null);
    // Keyboard and screen-reader users land on the new question.
    requestAnimationFrame(() => legend.current?.focus());
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let answer: Answer;
    if (question.type === "number") {
      const result = toMetric(question.measure, quiz.unitSystem, values);
      if ("invalidField" in result) {
        const field = numberFields(question.measure, quiz.unitSystem)[result.invalidField];
        setError({ message: t("quiz.range", { min: field?.min ?? 0, max: field?.max ?? 0 }), field: result.invalidField });
        return;
      }
      answer = result.value;
    } else if (choice.length === 0) {
      setError({ message: t(question.type === "multiple" ? "quiz.requiredMultiple" : "quiz.required"), field: 0 });
      return;
    } else {
      answer = question.type === "single" ? (choice[0] as string) : choice;
    }
    const answers = { ...progress.answers, [question.id]: answer };
    if (!isLast) return goTo(progress.step + 1, answers);
    writeProgress(sessionStore(), quiz.variant, { answers, step: progress.step });
    writeResult(sessionStore(), { variant: quiz.variant, answers });
    const query = new URLSearchParams(search);
    query.set("src", quiz.variant);
    navigateTo(`${quiz.summaryPath}?${query.toString()}`);
  };

  const toggle = (option: string) => {
    setError(null);
    setChoice((current) =>
      question.type === "single" ? [option] : current.includes(option) ? current.filter((o) => o !== option) : [...current, option],
    );
  };

  const fields = question.type === "number" ? numberFields(question.measure, quiz.unitSystem) : [];
  return (
    <form className="quiz" onSubmit={submit} noValidate>
      <div className="quiz__progress">
        <progress max={total} value={progress.step + 1} aria-label={t("quiz.progress", { current: progress.step + 1, total })} />
        <span aria-hidden="true">{t("quiz.progress", { current: progress.step + 1, total })}</span>
      </div>
      <fieldset className="quiz__question" aria-describedby={error ? errorId : undefined}>
        <legend ref={legend} tabIndex={-1}>
          {question.title}
        </legend>
        {question.hint ? <p className="quiz__hint">{question.hint}</p> : null}
        {question.type === "multiple" ? <p className="quiz__hint">{t("quiz.multipleHint")}</p> : null}
        {question.type === "number" ? (
          <div className="quiz__numbers">
            {fields.map((field, index) => (
              <label key={field.unit} className="quiz__number">
                <input
                  data-testid="quiz-input"
                  type="number"
                  inputMode="numeric"
                  min={field.min}
                  max={field.max}
                  step={1}
                  value={values[index] ?? ""}
                  aria-invalid={error?.field === index ? true : undefined}
                  aria-describedby={error?.field === index ? errorId : undefined}
                  onChange={(event) => {
                    setError(null);
                    const next = [...values];
                    next[index] = event.target.value;
                    setValues(next);
                  }}
                />
                <span>{t(`quiz.unit.${field.unit}`)}</span>
              </label>
            ))}
          </div>
        ) : (
          <div className="quiz__options">
            {question.options.map((option) => (
              <label key={option} className="quiz__option" data-testid="quiz-option">
                <input
                  type={question.type === "single" ? "radio" : "checkbox"}
                  name={question.id}
                  value={option}
                  checked={choice.includes(option)}
                  onChange={() => toggle(option)}
                  aria-invalid={error ? true : undefined}
                />
                <span>{question.optionLabels[option]}</span>
              </label>
            ))}
          </div>
        )}
        {error ? (
          <p id={errorId} className="field-error" role="alert">
            {error.message}
          </p>
        ) : null}
      </fieldset>
      <div className="quiz__actions">
        {progress.step > 0 ? (
          <button type="button" className="button button--secondary" onClick={() => goTo(progress.step - 1, progress.answers)}>
            {t("quiz.back")}
          </button>
        ) : null}
        <button type="submit" className="button button--primary" data-testid="quiz-next">
          {t(isLast ? "quiz.finish" : "quiz.next")}
        </button>
      </div>
    </form>
  );
});

const fresh: QuizProgress = { answers: {}, step: 0 };

/**
 * A quiz variant, one question at a time. The server renders the first question; once hydrated,
 * answers kept for this browser session are restored, so a reload loses nothing. Only then is the
 * quiz started again from the stored progress: a visitor with nothing stored keeps the instance
 * they may already be clicking in.
 */
export function QuizFlow({ quiz }: { quiz: QuizView }) {
  const hydrated = useHydrated();
  const stored = useMemo(() => (hydrated ? readProgress(sessionStore(), quiz.variant, quiz.questions) : fresh), [hydrated, quiz]);
  const restoring = Object.keys(stored.answers).length > 0;
  return <QuizSteps key={restoring ? "restored" : "fresh"} quiz={quiz} initial={restoring ? stored : fresh} />;
}

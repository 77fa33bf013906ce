/**
 * The quiz as data: questions of three kinds, answers kept per browser session, and the numeric
 * questions in the units the market uses (imperial in the GB market, metric elsewhere).
 */

export type Measure = "age" | "height" | "weight";
export type UnitSystem = "metric" | "imperial";

export type QuestionDefinition =
  | { id: string; type: "single" | "multiple"; options: string[] }
  | { id: string; type: "number"; measure: Measure };

/** Answers as stored: option ids, or a number in metric units (years, cm, kg). */
export type Answer = string | string[] | number;
export type Answers = Record<string, Answer>;

export interface NumberField {
  /** The unit's message key suffix: `years`, `cm`, `kg`, `ft`, `in`, `st`, `lb`. */
  unit: string;
  min: number;
  max: number;
}

/** The fields a numeric question shows: one in metric, two (ft + in, st + lb) in imperial. */
export function numberFields(measure: Measure, system: UnitSystem): NumberField[] {
  if (measure === "age") return [{ unit: "years", min: 18, max: 99 }];
  if (measure === "height") {
    return system === "metric" ? [{ unit: "cm", min: 120, max: 230 }] : [{ unit: "ft", min: 3, max: 7 }, { unit: "in", min: 0, max: 11 }];
  }
  return system === "metric" ? [{ unit: "kg", min: 35, max: 250 }] : [{ unit: "st", min: 5, max: 39 }, { unit: "lb", min: 0, max: 13 }];
}

export function unitSystemFor(country: string): UnitSystem {
  return country === "GB" ? "imperial" : "metric";
}

/** The field values as a metric number, or the first field that is out of range. */
export function toMetric(
  measure: Measure,
  system: UnitSystem,
  values: readonly string[],
): { value: number } | { invalidField: number } {
  const fields = numberFields(measure, system);
  const numbers: number[] = [];
  for (const [index, field] of fields.entries()) {
    const raw = (values[index] ?? "").trim();
    const number = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(number >= field.min && number <= field.max)) return { invalidField: index };
    numbers.push(number);
  }
  const [first = 0, second = 0] = numbers;
  if (system === "metric" || measure === "age") return { value: first };
  return { value: measure === "height" ? Math.round((first * 12 + second) * 2.54) : Math.round(((first * 14 + second) * 0.45359237) * 10) / 10 };
}

/** The stored metric number shown again in the market's fields (for back and reload). */
export function fromMetric(measure: Measure, system: UnitSystem, value: number): string[] {
  if (system === "metric" || measure === "age") return [String(value)];
  if (measure === "height") {
    const inches = Math.round(value / 2.54);
    return [String(Math.floor(inches / 12)), String(inches % 12)];
  }
  const pounds = Math.round(value / 0.45359237);
  return [String(Math.floor(pounds / 14)), String(pounds % 14)];
}

/** Whether a stored answer fits its question; anything else is dropped as stale or tampered. */
export function isValidAnswer(question: QuestionDefinition, answer: unknown): answer is Answer {
  if (question.type !== "number") {
    if (question.type === "single") return typeof answer === "string" && question.options.includes(answer);
    return Array.isArray(answer) && answer.length > 0 && answer.every((option) => typeof option === "string" && question.options.includes(option));
  }
  const [min, max] = question.measure === "age" ? [18, 99] : question.measure === "height" ? [90, 240] : [30, 260];
  return typeof answer === "number" && Number.isFinite(answer) && answer >= min && answer <= max;
}

export interface QuizProgress {
  answers: Answers;
  step: number;
}

export const quizStorageKey = (variant: string) => `vitanor:quiz:${variant}`;
export const summaryStorageKey = "vitanor:quiz-result";

/** Reads a variant's progress, keeping only answers that still fit the questions. */
export function readProgress(storage: Storage | undefined, variant: string, questions: readonly QuestionDefinition[]): QuizProgress {
  let stored: unknown;
  try {
    stored = JSON.parse(storage?.getItem(quizStorageKey(variant)) ?? "null");
  } catch {
    stored = null;
  }
  const record = typeof stored === "object" && stored !== null ? (stored as { answers?: unknown; step?: unknown }) : {};
  const rawAnswers = typeof record.answers === "object" && record.answers !== null ? (record.answers as Record<string, unknown>) : {};
  const answers: Answers = {};
  for (const question of questions) {
    const answer = rawAnswers[question.id];
    if (isValidAnswer(question, answer)) answers[question.id] = answer;
  }
  // Resume at the first unanswered question, never beyond what was actually answered.
  const firstOpen = questions.findIndex((question) => !(question.id in answers));
  const maxStep = firstOpen === -1 ? questions.length - 1 : firstOpen;
  const step = typeof record.step === "number" && Number.isInteger(record.step) ? Math.min(Math.max(record.step, 0), maxStep) : maxStep;
  return { answers, step };
}

export function writeProgress(storage: Storage | undefined, variant: string, progress: QuizProgress): void {
  try {
    storage?.setItem(quizStorageKey(variant), JSON.stringify(progress));
  } catch {
    // Private browsing without storage: the quiz still works, a reload starts it again.
  }
}

export interface QuizResult {
  variant: string;
  answers: Answers;
}

export function writeResult(storage: Storage | undefined, result: QuizResult): void {
  try {
    storage?.setItem(summaryStorageKey, JSON.stringify(result));
  } catch {
    // See writeProgress.
  }
}

/** The finished quiz's answers for the summary; tampered content gives no result. */
export function readResult(storage: Storage | undefined, goalOptions: readonly string[], habitOptions: readonly string[]): { goal?: string; habits: string[] } | null {
  let stored: unknown;
  try {
    stored = JSON.parse(storage?.getItem(summaryStorageKey) ?? "null");
  } catch {
    return null;
  }
  const answers = (stored as { answers?: Record<string, unknown> } | null)?.answers;
  if (typeof answers !== "object" || answers === null) return null;
  const goal = typeof answers.goal === "string" && goalOptions.includes(answers.goal) ? answers.goal : undefined;
  const habits = Array.isArray(answers.habits) ? answers.habits.filter((habit): habit is string => typeof habit === "string" && habitOptions.includes(habit)) : [];
  return goal || habits.length > 0 ? { goal, habits } : null;
}

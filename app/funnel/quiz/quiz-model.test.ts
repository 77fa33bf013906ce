import { memoryStorage } from "../../test-support/memory-storage";
import { describe, expect, it } from "vitest";
import { fromMetric, isValidAnswer, numberFields, quizStorageKey, readProgress, readResult, summaryStorageKey, toMetric, type QuestionDefinition } from "./quiz-model";


const questions: QuestionDefinition[] = [
  { id: "goal", type: "single", options: ["feelLighter", "moreEnergy"] },
  { id: "habits", type: "multiple", options: ["stress", "shortSleep"] },
  { id: "age", type: "number", measure: "age" },
];

describe("numbers in the market's units", () => {
  it.each([
    ["age", "metric", ["42"], 42],
    ["height", "metric", ["172"], 172],
    ["weight", "metric", ["68"], 68],
    ["height", "imperial", ["5", "8"], 173],
    ["weight", "imperial", ["10", "10"], 68],
    ["age", "imperial", ["30"], 30],
  ] as const)("%s in %s %j is %d", (measure, system, values, value) => {
    expect(toMetric(measure, system, values)).toEqual({ value });
  });

  it.each([
    ["age", "metric", ["17"], 0],
    ["age", "metric", ["100"], 0],
    ["age", "metric", ["4a"], 0],
    ["age", "metric", [""], 0],
    ["height", "metric", ["119"], 0],
    ["weight", "metric", ["30.5"], 0],
    ["height", "imperial", ["5", "12"], 1],
    ["weight", "imperial", ["4", "2"], 0],
  ] as const)("%s in %s %j is refused at field %i", (measure, system, values, invalidField) => {
    expect(toMetric(measure, system, values)).toEqual({ invalidField });
  });

  it("shows a stored value again in the same units", () => {
    expect(fromMetric("height", "imperial", 173)).toEqual(["5", "8"]);
    expect(fromMetric("weight", "imperial", 68)).toEqual(["10", "10"]);
    expect(fromMetric("weight", "metric", 68)).toEqual(["68"]);
  });

  it("has ranges for every field", () => {
    expect(numberFields("height", "imperial")).toEqual([{ unit: "ft", min: 3, max: 7 }, { unit: "in", min: 0, max: 11 }]);
  });
});

describe("stored progress", () => {
  it("resumes where the visitor left off", () => {
    const saved = JSON.stringify({ answers: { goal: "moreEnergy", habits: ["stress"] }, step: 2 });
    expect(readProgress(memoryStorage({ [quizStorageKey("v2")]: saved }), "v2", questions)).toEqual({
      answers: { goal: "moreEnergy", habits: ["stress"] },
      step: 2,
    });
  });

  it.each([
    ["not JSON", "{"],
    ["a number", "42"],
    ["unknown options", JSON.stringify({ answers: { goal: "<script>", habits: ["x"] }, step: 2 })],
    ["an answer of the wrong kind", JSON.stringify({ answers: { goal: ["moreEnergy"], age: "30" }, step: 1 })],
    ["an impossible age", JSON.stringify({ answers: { age: 250 }, step: 0 })],
  ])("ignores %s", (_name, value) => {
    expect(readProgress(memoryStorage({ [quizStorageKey("v2")]: value }), "v2", questions)).toEqual({ answers: {}, step: 0 });
  });

  it("never resumes beyond the first unanswered question", () => {
    const saved = JSON.stringify({ answers: { goal: "moreEnergy" }, step: 9 });
    expect(readProgress(memoryStorage({ [quizStorageKey("v2")]: saved }), "v2", questions).step).toBe(1);
  });

  it("checks answers against their question", () => {
    expect(isValidAnswer(questions[1] as QuestionDefinition, [])).toBe(false);
    expect(isValidAnswer(questions[2] as QuestionDefinition, 42)).toBe(true);
  });
});

describe("the summary's result", () => {
  it.each([
    [JSON.stringify({ answers: { goal: "moreEnergy", habits: ["stress", "bogus"] } }), { goal: "moreEnergy", habits: ["stress"] }],
    [JSON.stringify({ answers: { goal: "nope" } }), null],
    ["garbage", null],
  ])("%s → %j", (value, result) => {
    expect(readResult(memoryStorage({ [summaryStorageKey]: value }), ["feelLighter", "moreEnergy"], ["stress", "shortSleep"])).toEqual(result);
  });
});

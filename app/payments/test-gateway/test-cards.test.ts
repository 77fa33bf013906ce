import { describe, expect, it } from "vitest";
import { cardFieldProblems, testCardKind, type CardFieldProblem, type TestCardKind } from "./test-cards";

describe("testCardKind", () => {
  it.each<[string, TestCardKind | null]>([
    ["4242 4242 4242 4242", "succeeds"],
    ["4000 0000 0000 0002", "declined"],
    ["4000 0000 0000 9995", "insufficientFunds"],
    ["4000 0027 6000 3184", "authenticateAlways"],
    ["4000 0025 0000 3155", "authenticateFirst"],
    ["4242424242424242", "succeeds"],
    ["4242-4242-4242-4242", "succeeds"],
    ["4111 1111 1111 1111", null],
    ["4242 4242 4242 4241", null],
    ["4242", null],
    ["", null],
  ])("%j is %s", (typed, kind) => {
    expect(testCardKind(typed)).toBe(kind);
  });
});

describe("cardFieldProblems", () => {
  const today = new Date("2026-11-23T12:00:00Z");
  const valid = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" };

  it.each<[string, Partial<typeof valid>, CardFieldProblem[]]>([
    ["all fields right", {}, []],
    ["any 12 to 19 digits as a number", { number: "1234 5678 9012" }, []],
    ["19 digits", { number: "1234567890123456789" }, []],
    ["11 digits", { number: "12345678901" }, ["number"]],
    ["20 digits", { number: "12345678901234567890" }, ["number"]],
    ["letters in the number", { number: "4242 4242 4242 424X" }, ["number"]],
    ["an empty number", { number: "" }, ["number"]],
    ["this month's expiry", { expiry: "11/26" }, []],
    ["last month's expiry", { expiry: "10/26" }, ["expiry"]],
    ["last year's expiry", { expiry: "12/25" }, ["expiry"]],
    ["a four-digit year", { expiry: "12/2030" }, []],
    ["a one-digit month with spaces", { expiry: " 1 / 27 " }, []],
    ["month 13", { expiry: "13/30" }, ["expiry"]],
    ["month 0", { expiry: "00/30" }, ["expiry"]],
    ["no slash", { expiry: "1230" }, ["expiry"]],
    ["a three-digit year", { expiry: "12/030" }, ["expiry"]],
    ["an empty expiry", { expiry: "" }, ["expiry"]],
    ["a CVC with spaces around it", { cvc: " 123 " }, []],
    ["a two-digit CVC", { cvc: "12" }, ["cvc"]],
    ["a four-digit CVC", { cvc: "1234" }, ["cvc"]],
    ["letters in the CVC", { cvc: "12a" }, ["cvc"]],
    ["everything wrong", { number: "1234", expiry: "10/26", cvc: "" }, ["number", "expiry", "cvc"]],
  ])("%s", (_name, fields, problems) => {
    expect(cardFieldProblems({ ...valid, ...fields }, today)).toEqual(problems);
  });
});

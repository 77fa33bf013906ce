import { describe, expect, it } from "vitest";
import { shapeProblems } from "./locale-files";

const reference = {
  title: "Checkout",
  form: { email: "E-mail", steps: ["Address", "Payment", "Review"] },
};

describe("shapeProblems", () => {
  it.each<[string, unknown]>([
    ["the same shape", { title: "Kasse", form: { email: "E-Mail", steps: ["Adresse", "Zahlung", "Prüfen"] } }],
    ["the same shape with keys in another order", { form: { steps: ["Adresse", "Zahlung", "Prüfen"], email: "E-Mail" }, title: "Kasse" }],
  ])("finds nothing wrong with %s", (_name, candidate) => {
    expect(shapeProblems(reference, candidate, "de_DE")).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ["a missing key", { title: "Kasse", form: { steps: ["Adresse", "Zahlung", "Prüfen"] } }, "de_DE.form.email"],
    ["a missing object", { title: "Kasse" }, "de_DE.form"],
    ["an extra key", { title: "Kasse", subtitle: "Sicher", form: { email: "E-Mail", steps: ["Adresse", "Zahlung", "Prüfen"] } }, "de_DE.subtitle"],
    ["an empty string", { title: "Kasse", form: { email: "", steps: ["Adresse", "Zahlung", "Prüfen"] } }, "de_DE.form.email"],
    ["a string of spaces", { title: "  ", form: { email: "E-Mail", steps: ["Adresse", "Zahlung", "Prüfen"] } }, "de_DE.title"],
    ["an empty string in a list", { title: "Kasse", form: { email: "E-Mail", steps: ["Adresse", "", "Prüfen"] } }, "de_DE.form.steps.1"],
    ["a list too short", { title: "Kasse", form: { email: "E-Mail", steps: ["Adresse", "Zahlung"] } }, "de_DE.form.steps"],
    ["a list too long", { title: "Kasse", form: { email: "E-Mail", steps: ["Adresse", "Zahlung", "Prüfen", "Fertig"] } }, "de_DE.form.steps"],
    ["a text instead of a list", { title: "Kasse", form: { email: "E-Mail", steps: "Adresse" } }, "de_DE.form.steps"],
    ["a number instead of a text", { title: 1, form: { email: "E-Mail", steps: ["Adresse", "Zahlung", "Prüfen"] } }, "de_DE.title"],
    ["a list instead of an object", { title: "Kasse", form: ["E-Mail"] }, "de_DE.form"],
  ])("reports %s, naming its path", (_name, candidate, path) => {
    const problems = shapeProblems(reference, candidate, "de_DE");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${path.replace(/\./g, "\\.")}: `));
  });

  it("reports every problem of a candidate with several", () => {
    expect(shapeProblems(reference, { extra: "x", form: { email: "", steps: [] } }, "de_DE")).toEqual([
      "de_DE.extra: not a known key",
      "de_DE.title: must be a text that is not empty",
      "de_DE.form.email: must be a text that is not empty",
      "de_DE.form.steps: must be a list of 3 texts",
    ]);
  });
});

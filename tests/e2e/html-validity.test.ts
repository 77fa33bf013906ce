import { HtmlValidate } from "html-validate";
import { describe, expect, inject, it } from "vitest";
import { pageTypes } from "./support/page-types";

const baseUrl = inject("baseUrl");
const validator = new HtmlValidate({ extends: ["html-validate:standard"] });

describe("the HTML of every page type", () => {
  it.each(pageTypes)("%s has no validator error", async (path) => {
    const html = await (await fetch(baseUrl + path)).text();
    const report = await validator.validateString(html);
    const errors = report.results.flatMap((result) => result.messages.filter((message) => message.severity === 2));
    expect(errors.map((error) => `${error.ruleId}: ${error.message} (${error.selector ?? ""})`)).toEqual([]);
  });
});

describe("the headings of every page type", () => {
  it.each(pageTypes)("%s never repeats a heading right below itself", async (path) => {
    const html = await (await fetch(baseUrl + path)).text();
    const headings = [...html.matchAll(/<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/g)].map((match) => (match[1] ?? "").replace(/<[^>]+>/g, "").trim());
    expect(headings.length).toBeGreaterThan(0);
    const repeats = headings.filter((heading, index) => index > 0 && heading === headings[index - 1]);
    expect(repeats).toEqual([]);
  });
});

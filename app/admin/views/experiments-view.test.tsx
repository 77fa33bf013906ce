// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { emptyDraft, ExperimentsView, verdictBasis } from "./experiments-view";

const owner = { id: "op-1", email: "owner@store.test", role: "owner" as const };

function creationForm(draft = emptyDraft): HTMLFormElement {
  const html = renderToString(<ExperimentsView operator={owner} experiments={[]} draft={draft} errors={[]} />);
  const form = new DOMParser().parseFromString(html, "text/html").querySelector<HTMLFormElement>('form:has([data-testid="experiment-start"])');
  if (!form) throw new Error("no creation form");
  return form;
}

describe("the split test's creation form", () => {
  it("asks for the primary metric in a select of conversion and revenue, conversion chosen unless the operator changes it", () => {
    const select = creationForm().querySelector<HTMLSelectElement>('select[name="primaryMetric"]');
    expect([...(select?.options ?? [])].map((option) => option.value)).toEqual(["conversion", "revenue"]);
    expect(select?.value).toBe("conversion");
    expect(creationForm().querySelectorAll('input[name="primaryMetric"]')).toHaveLength(0);
  });

  it("shows a refused form again with the metric the operator chose", () => {
    expect(creationForm({ ...emptyDraft, primaryMetric: "revenue" }).querySelector<HTMLSelectElement>('select[name="primaryMetric"]')?.value).toBe("revenue");
  });
});

describe("what the verdict is given on", () => {
  it("names the family Holm-Bonferroni corrects for: the arms for conversion, each arm in each currency for revenue per visitor", () => {
    expect(verdictBasis("conversion", 3)).toBe("given on conversion alone, with Holm-Bonferroni across the 3 arms compared with the control");
    expect(verdictBasis("revenue", 6)).toBe("given on revenue per visitor alone, with Holm-Bonferroni across its 6 comparisons with the control, one per arm and currency");
  });
});

import { describe, expect, inject, it } from "vitest";
import { seriousViolations } from "./support/axe";
import { openHydrated, openPageSession } from "./support/chromium";
import { pageTypes } from "./support/page-types";

const baseUrl = inject("baseUrl");
// The checker is injected as an inline script, which the storefront's own CSP rightly refuses.
const session = openPageSession({ width: 390, height: 844 }, { bypassCSP: true });

describe("accessibility (axe-core, WCAG 2.1 AA)", () => {
  it.each(pageTypes)(
    "%s has no serious or critical violation",
    async (path) => {
      await openHydrated(session.page, baseUrl + path);
      expect(await seriousViolations(session.page)).toEqual([]);
    },
  );

  it("a refund form showing its errors has no serious or critical violation", async () => {
    await openHydrated(session.page, `${baseUrl}/refund/fr`);
    await session.page.locator("form button[type=submit]").click();
    await session.page.getByRole("alert").first().waitFor();
    expect(await seriousViolations(session.page)).toEqual([]);
  });

  it("the open information modal has no serious or critical violation", async () => {
    await openHydrated(session.page, `${baseUrl}/offer/gb`);
    await session.page.getByTestId("footer-privacy").click();
    await expect.poll(() => session.page.getByTestId("info-modal").locator("p").count()).toBeGreaterThan(2);
    expect(await seriousViolations(session.page)).toEqual([]);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";
import { startServer, type RunningServer } from "./support/server";

const gtmId = "GTM-T3ST42";
let server: RunningServer;
const session = openPageSession({ width: 1280, height: 800 });
let tagManagerRequests: string[];

beforeAll(async () => {
  server = await startServer({ GTM_ID: gtmId });
});
afterAll(async () => {
  await server?.stop();
});
beforeEach(async () => {
  tagManagerRequests = [];
  // No network here: answer for the tag manager with a script that only says it ran.
  await session.page.route("https://www.googletagmanager.com/**", async (route) => {
    tagManagerRequests.push(route.request().url());
    await route.fulfill({ contentType: "text/javascript", body: "window.tagManagerRan = true;" });
  });
});

type Entry = Record<string, unknown>;
const dataLayer = () => session.page.evaluate(() => JSON.parse(JSON.stringify(window.dataLayer ?? null)) as Entry[] | null);
const consentCommands = async () => ((await dataLayer()) ?? []).filter((entry) => entry["0"] === "consent");
const pageViews = async () => ((await dataLayer()) ?? []).filter((entry) => entry.event === "content-view");
const denied = { ad_storage: "denied", analytics_storage: "denied", ad_user_data: "denied", ad_personalization: "denied" };
const granted = { ad_storage: "granted", analytics_storage: "granted", ad_user_data: "granted", ad_personalization: "granted" };

describe("tag manager behind consent", () => {
  it("sets Consent Mode defaults first and loads the tag manager only after Accept, remembering it", async () => {
    await openHydrated(session.page, `${server.url}/offer/fr`);
    await session.page.getByTestId("consent-banner").waitFor();
    expect(await consentCommands()).toEqual([{ "0": "consent", "1": "default", "2": denied }]);
    expect(tagManagerRequests).toEqual([]);

    await session.page.getByTestId("consent-accept").click();
    await expect.poll(() => tagManagerRequests).toEqual([`https://www.googletagmanager.com/gtm.js?id=${gtmId}&l=dataLayer`]);
    const entries = (await dataLayer()) ?? [];
    const startIndex = entries.findIndex((entry) => entry.event === "gtm.js");
    expect(entries[startIndex]?.["gtm.start"]).toEqual(expect.any(Number));
    expect(await consentCommands()).toContainEqual({ "0": "consent", "1": "update", "2": granted });
    expect(await session.page.getByTestId("consent-banner").count()).toBe(0);

    await openHydrated(session.page, `${server.url}/offer/fr`);
    await expect.poll(() => tagManagerRequests.length).toBe(2);
    expect(await session.page.getByTestId("consent-banner").count()).toBe(0);
  });

  it("loads nothing after Reject, remembers it, and lets the visitor change it in the settings", async () => {
    await openHydrated(session.page, `${server.url}/offer/de`);
    await session.page.getByTestId("consent-reject").click();
    expect(await consentCommands()).toContainEqual({ "0": "consent", "1": "update", "2": denied });

    await openHydrated(session.page, `${server.url}/thankyou/de`);
    await session.page.getByTestId("consent-settings").waitFor();
    expect(await session.page.getByTestId("consent-banner").count()).toBe(0);
    expect(tagManagerRequests).toEqual([]);

    await session.page.getByTestId("consent-settings").click();
    await session.page.getByTestId("consent-accept").click();
    await expect.poll(() => tagManagerRequests.length).toBe(1);
  });

  it("offers Accept and Reject with equal weight", async () => {
    await openHydrated(session.page, `${server.url}/`);
    const style = (testId: string) =>
      session.page.getByTestId(testId).evaluate((element) => {
        const css = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return [css.backgroundColor, css.color, css.fontSize, css.fontWeight, css.borderColor, Math.round(box.width), Math.round(box.height)];
      });
    await session.page.getByTestId("consent-banner").waitFor();
    expect(await style("consent-accept")).toEqual(await style("consent-reject"));
  });
});

describe("page views", () => {
  it("pushes content-view on the first load and after each navigation, without personal data", async () => {
    await openHydrated(session.page, `${server.url}/offer/gb?utm_source=mail&email=jane%40example.com`);
    await expect.poll(pageViews).toEqual([
      { event: "content-view", "content-name": "/offer/gb?utm_source=mail&email=redacted", "content-view-name": "offer-2", "touch-source": "mail", "touch-campaign": "" },
    ]);
    await session.page.getByTestId("product-card").first().getByRole("link").click();
    await session.page.waitForURL(/\/checkout\/gb/);
    await expect.poll(async () => (await pageViews()).at(-1)).toEqual({
      event: "content-view",
      "content-name": expect.stringMatching(/^\/checkout\/gb\?bundle=[a-z0-9-]+&utm_source=mail&email=redacted$/),
      "content-view-name": "checkout-2",
      "touch-source": "mail",
      "touch-campaign": "",
    });
    expect(JSON.stringify(await dataLayer())).not.toContain("jane");
  });
});

describe("without GTM_ID", () => {
  it("has no tag manager, no data layer and no consent banner", async () => {
    await openHydrated(session.page, `${inject("baseUrl")}/offer/fr`);
    await session.page.waitForLoadState("networkidle");
    expect(await dataLayer()).toBeNull();
    expect(await session.page.getByTestId("consent-banner").count()).toBe(0);
    expect(await session.page.getByTestId("consent-settings").count()).toBe(0);
    expect(tagManagerRequests).toEqual([]);
  });
});

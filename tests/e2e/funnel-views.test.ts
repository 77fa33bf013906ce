import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, like } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/database.server";
import { orderEvents, orders } from "../../app/orders/schema";
import { pageViews } from "../../app/funnel/schema";
import { fillContact, payByCard } from "./support/buyer";
import { launchChromium } from "./support/chromium";
import { startServer, type RunningServer } from "./support/server";

/** A person's Chromium: the headless one says so in its user agent, and crawlers are not counted. */
const personAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

/** Waits until the page's next beacon has been answered, so the count is stored. */
async function nextBeacon(page: Page, action: () => Promise<unknown>): Promise<number | undefined> {
  const sent = page.waitForEvent("requestfinished", { predicate: (request) => new URL(request.url()).pathname === "/funnel-view", timeout: 10_000 });
  await action();
  return (await (await sent).response())?.status();
}

// Its own server and data directory: the embedded database is read once the server has stopped.
describe("funnel page views", () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-views-"));
    server = await startServer({ DATA_DIR: dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("counts a person's views of the offer, the checkout and the upsell, and records the upsell shown", { timeout: 90_000 }, async () => {
    const person = await browser.newPage({ userAgent: personAgent, viewport: { width: 1280, height: 900 } });
    const status = await nextBeacon(person, () => person.goto(`${server.url}/offer/fr?src=e2e-views`));
    expect(status).toBe(204);
    await person.waitForSelector("html[data-hydrated]");
    // A client-side navigation to the checkout counts the checkout.
    await nextBeacon(person, () => person.getByTestId("product-card").first().getByRole("link").click());
    await person.waitForURL(/\/checkout\/fr\?bundle=[\w-]+&src=e2e-views$/);
    await fillContact(person);
    await nextBeacon(person, () => payByCard(person, "4242 4242 4242 4242"));
    await person.waitForURL(/\/upsell\/fr\?src=e2e-views$/);
    await person.close();

    // A headless browser is answered but not counted.
    const crawler = await browser.newPage();
    expect(await nextBeacon(crawler, () => crawler.goto(`${server.url}/take/fr?src=e2e-headless`))).toBe(204);
    await crawler.close();

    await server.stop();
    const database = await openDatabase({ dataDir });
    try {
      const counted = await database.db.select().from(pageViews).where(like(pageViews.src, "e2e-%"));
      expect(counted.map((row) => [row.step, row.market, row.src, row.views]).sort()).toEqual([
        ["checkout", "FR", "e2e-views", 1],
        ["offer", "FR", "e2e-views", 1],
        ["upsell-1", "FR", "e2e-views", 1],
      ]);
      const shown = await database.db
        .select({ step: orderEvents.detail })
        .from(orderEvents)
        .innerJoin(orders, eq(orders.id, orderEvents.orderId))
        .where(and(eq(orderEvents.type, "upsell_shown"), eq(orders.funnelSrc, "e2e-views")));
      expect(shown.length).toBeGreaterThanOrEqual(1);
      expect(new Set(shown.map((event) => event.step.step))).toEqual(new Set(["upsell"]));
    } finally {
      await database.close();
    }
  });
});

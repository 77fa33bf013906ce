import type { Page } from "playwright-core";
import { inject } from "vitest";
import { openHydrated } from "./chromium";
import { mailFiles, readable } from "./mail-files";

/** A buyer in France going through the checkout with the test gateway's card form. */
export const buyer = { email: "anna.muster@example.com", givenName: "Anna", familyName: "Muster", addressLine1: "12 rue de la Paix", postalCode: "75002", city: "Paris" };

export async function openCheckout(page: Page, market = "fr", query = "bundle=shape-3&src=v2"): Promise<void> {
  await openHydrated(page, `${inject("baseUrl")}/checkout/${market}?${query}`);
}

export async function fillContact(page: Page, values: Record<string, string> = buyer): Promise<void> {
  for (const [field, value] of Object.entries(values)) await page.locator(`[name="${field}"]`).fill(value);
}

export async function payByCard(page: Page, number: string): Promise<void> {
  await page.locator('input[name="method"][value="card"]').check();
  await page.locator('[autocomplete="cc-number"]').fill(number);
  await page.locator('[autocomplete="cc-exp"]').fill("12/30");
  await page.locator('[autocomplete="cc-csc"]').fill("123");
  await page.getByTestId("place-order").click();
}

/**
 * The .eml files of one kind (by their Message-ID, `<kind.id@…>`) that the server wrote for an
 * order number, decoded, waiting for the outbox worker: by default its confirmation, not the
 * invitation to review that a digital item also brings.
 */
export async function mailsFor(orderNumber: string, kind = "order-confirmation"): Promise<string[]> {
  const messages = await mailFiles(inject("dataDir"));
  const ofKind = new RegExp(`^Message-ID: <${kind}\\.`, "im");
  return messages.filter((message) => ofKind.test(message)).map(readable).filter((text) => text.includes(orderNumber));
}

// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FulfilmentRow } from "../../parcels/fulfilment.server";
import { FulfilmentView } from "./fulfilment-view";

const operator = { id: "8b7c2a7e-3f1d-4a55-9d0e-2f6a1b3c4d5e", email: "support@example.com", role: "support" as const };

function row(orderNumber: string, paidAt: string): FulfilmentRow {
  return {
    orderId: orderNumber,
    orderNumber,
    paidAt: new Date(paidAt),
    lineId: orderNumber.length,
    productId: "shape",
    productName: "Shape",
    packs: 3,
    recipient: "Lena Schmidt",
    addressLine1: "Gartenweg 7",
    addressLine2: "",
    postalCode: "80331",
    city: "München",
    country: "DE",
    phone: "",
    email: "lena@example.com",
    market: "DE",
    test: false,
  };
}

describe("the fulfilment queue", () => {
  it("marks the orders past the promised dispatch time, with the time they were due out", () => {
    const now = new Date("2026-11-30T16:00:00Z");
    const html = renderToString(<FulfilmentView operator={operator} rows={[row("VN-2222-2222", "2026-11-27T15:30:00Z"), row("VN-3333-3333", "2026-11-30T09:00:00Z")]} now={now} />);
    const document = new DOMParser().parseFromString(html, "text/html");
    const marks = [...document.querySelectorAll('[data-testid="admin-overdue"]')].map((mark) => [mark.closest("tr")?.querySelector("a")?.textContent, mark.textContent]);
    expect(marks).toEqual([["VN-2222-2222", "overdue: due out 2026-11-30 15:30 UTC"]]);
    expect(document.querySelector('[data-testid="admin-overdue-count"]')?.textContent).toBe(
      "1 order is past the promised dispatch time (a parcel leaves within 1 working day of payment): ship it first.",
    );
  });

  it("marks nothing while every order is within its promise", () => {
    const html = renderToString(<FulfilmentView operator={operator} rows={[row("VN-3333-3333", "2026-11-30T09:00:00Z")]} now={new Date("2026-11-30T16:00:00Z")} />);
    expect(html).not.toContain("overdue");
    expect(html).not.toContain("admin-overdue-count");
  });
});

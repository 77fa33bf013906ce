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
  it("marks the orders past the promised dispatch time, with the cut-off they were due out by", () => {
    // Monday 30 November, 15:00 in Berlin: Friday evening's order was due out at today's cut-off
    // (14:00 local, 13:00 UTC); the one paid this afternoon after the cut-off is due out tomorrow.
    const now = new Date("2026-11-30T14:00:00Z");
    const html = renderToString(<FulfilmentView operator={operator} rows={[row("VN-2222-2222", "2026-11-27T15:30:00Z"), row("VN-3333-3333", "2026-11-30T13:30:00Z")]} now={now} />);
    const document = new DOMParser().parseFromString(html, "text/html");
    const marks = [...document.querySelectorAll('[data-testid="admin-overdue"]')].map((mark) => [mark.closest("tr")?.querySelector("a")?.textContent, mark.textContent]);
    expect(marks).toEqual([["VN-2222-2222", "overdue: due out 2026-11-30 13:00 UTC"]]);
    expect(document.querySelector('[data-testid="admin-overdue-count"]')?.textContent).toBe(
      "1 order is past the promised dispatch time (paid before the market's cut-off on a working day, an order leaves that day; otherwise on the next working day, as the shop's countdown promises): ship it first.",
    );
  });

  it("reads each order's cut-off in its own market's time", () => {
    // 13:30 UTC: past the cut-off in Helsinki (15:30) but not yet in London (13:30); both paid at 08:00 UTC today.
    const now = new Date("2026-11-30T13:30:00Z");
    const html = renderToString(
      <FulfilmentView operator={operator} rows={[{ ...row("VN-4444-4444", "2026-11-30T08:00:00Z"), market: "FI" }, { ...row("VN-5555-5555", "2026-11-30T08:00:00Z"), market: "GB" }]} now={now} />,
    );
    const document = new DOMParser().parseFromString(html, "text/html");
    const marks = [...document.querySelectorAll('[data-testid="admin-overdue"]')].map((mark) => [mark.closest("tr")?.querySelector("a")?.textContent, mark.textContent]);
    expect(marks).toEqual([["VN-4444-4444", "overdue: due out 2026-11-30 12:00 UTC"]]);
  });

  it("marks nothing while every order is within its promise", () => {
    const html = renderToString(<FulfilmentView operator={operator} rows={[row("VN-3333-3333", "2026-11-30T13:30:00Z")]} now={new Date("2026-11-30T16:00:00Z")} />);
    expect(html).not.toContain("overdue");
    expect(html).not.toContain("admin-overdue-count");
  });
});

import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orders } from "../orders/schema";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder } from "../test-support/orders";
import { listOrders, orderDetail, parseOrderFilter, type OrderFilter } from "./order-queries.server";

const none: OrderFilter = { query: "", status: "", market: "", from: "", to: "", test: "all", page: 1 };

describe("the order list's filter", () => {
  it.each<[string, Partial<OrderFilter>]>([
    ["", {}],
    ["q=%20anna%20&status=paid&market=CH-FR&from=2026-11-01&to=2026-11-23&test=live&page=3", { query: "anna", status: "paid", market: "CH-FR", from: "2026-11-01", to: "2026-11-23", test: "live", page: 3 }],
    ["status=shipped&market=US&test=maybe&page=0", {}],
    ["from=2026-13-01&to=yesterday&page=1.5", {}],
    ["page=-2&q=" + "x".repeat(300), { query: "x".repeat(200) }],
  ])("reads ?%s", (query, expected) => {
    expect(parseOrderFilter(new URLSearchParams(query))).toEqual({ ...none, ...expected });
  });
});

describe.each(databaseKinds)("order list and detail on %s", (kind) => {
  const database = useTestDatabase(kind);
  let number = "";
  beforeAll(async () => {
    const placed = await placeTestOrder(database.db);
    number = placed.order.number;
    // A second buyer, so that a search has something to leave out.
    const other = await placeTestOrder(database.db);
    await database.db.update(orders).set({ email: "b.other@example.com", givenName: "Bruno", familyName: "Keller", market: "CH" }).where(eq(orders.id, other.order.id));
  });

  it.each<[string, Partial<OrderFilter>, number]>([
    ["everything", {}, 2],
    ["the exact e-mail, any case", { query: "A@Example.com" }, 1],
    ["part of an e-mail", { query: "other@" }, 1],
    ["a full name", { query: "anna muster" }, 1],
    ["a market", { market: "CH" }, 1],
    ["a status", { status: "paid" }, 0],
    ["live orders", { test: "live" }, 0],
    ["test orders", { test: "test" }, 2],
    ["a day range that holds them", { from: "2000-01-01", to: "2999-12-31" }, 2],
    ["a day range before them", { from: "2000-01-01", to: "2000-01-02" }, 0],
    ["a pattern character taken literally", { query: "%" }, 0],
  ])("finds %s", async (_name, filter, count) => {
    const { rows, total } = await listOrders(database.db, { ...none, ...filter });
    expect(total).toBe(count);
    expect(rows).toHaveLength(count);
  });

  it("finds an order by its number typed loosely", async () => {
    const typed = number.toLowerCase().replace(/-/g, " ");
    const { rows } = await listOrders(database.db, { ...none, query: typed });
    expect(rows.map((row) => row.number)).toEqual([number]);
  });

  it("gives an order with its lines, payments and timeline, and nothing for an unknown number", async () => {
    const detail = await orderDetail(database.db, number);
    expect(detail?.lines).toHaveLength(1);
    expect(detail?.payments).toHaveLength(1);
    expect(detail?.timeline.map((entry) => (entry.kind === "event" ? entry.type : entry.action))).toEqual(["order_created", "payment_started"]);
    expect(await orderDetail(database.db, "VN-2222-2222")).toBeNull();
  });
});

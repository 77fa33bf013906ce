import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installStore, type Store } from "../store/store.server";
import { useTestDatabase } from "../test-support/databases";
import { handleAdminRequest } from "./admin-handler.server";
import { paidTestOrder } from "../test-support/back-office";
import { addOperator } from "./operators.server";

const origin = "http://127.0.0.1:4000";

describe("the back office's front door and its route list", () => {
  const database = useTestDatabase("pglite");
  let cookie = "";

  const get = (path: string, method = "GET") => handleAdminRequest(new Request(`${origin}${path}`, { method, headers: { cookie } }));
  const post = (path: string, form: Record<string, string>) =>
    handleAdminRequest(new Request(`${origin}${path}`, { method: "POST", body: new URLSearchParams(form), headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" } }));

  beforeAll(async () => {
    installStore({ db: database.db, settings: { publicUrl: origin, storeMode: "test" } } as unknown as Store);
    await addOperator(database.db, { email: "owner@example.com", role: "owner", password: "a long enough password" });
    const login = await post("/admin/login", { email: "owner@example.com", password: "a long enough password", next: "/admin/orders" });
    expect(login.status).toBe(303);
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(login.headers.get("set-cookie")).toMatch(/^vitanor_admin=[^;]+; Path=\/admin; HttpOnly; SameSite=Strict$/);
  });

  afterAll(() => {
    installStore(undefined);
  });

  it("renders a section's page inside the navigation derived from the route list, marking the current section", async () => {
    const answer = await get("/admin/privacy");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const links = [...html.matchAll(/<li><a href="(\/admin\/[a-z]+)"( aria-current="page")?>/g)].map((found) => `${found[1]}${found[2] ? " (current)" : ""}`);
    expect(links).toEqual(["/admin/orders", "/admin/fulfilment", "/admin/files", "/admin/requests", "/admin/reviews", "/admin/privacy (current)", "/admin/report", "/admin/attribution", "/admin/experiments", "/admin/codes"]);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(html).not.toContain("<script");
  });

  it("answers 404 to a path no route has or a parameter of the wrong shape, and 405 to a method its route does not take", async () => {
    for (const path of ["/admin/nothing-here", "/admin/orders/not-a-number", "/admin/experiments/TOO-LONG-KEY", "/admin/files/abc", "/admin/Privacy"]) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(await answer.text()).toContain("There is no such back-office page.");
    }
    expect((await get("/admin/privacy/export")).status).toBe(405);
    expect((await post("/admin/report", {})).status).toBe(405);
    // An action runs for a form's POST only, never for another method from anywhere.
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) expect([method, (await get("/admin/privacy/export", method)).status]).toEqual([method, 405]);
    expect((await get("/admin/orders/vn-aaaa-bbbb")).status).toBe(404);
  });

  it("answers HEAD with the loader's answer, an action's page inside the navigation and its redirect as it is", async () => {
    expect((await get("/admin/privacy", "HEAD")).status).toBe(200);
    const refused = await post("/admin/privacy/erase", { email: "nobody@example.com", confirmEmail: "somebody@example.com" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('<a href="/admin/privacy" aria-current="page">');
    const { order } = await paidTestOrder(database.db);
    const erased = await post("/admin/privacy/erase", { email: order.email, confirmEmail: order.email, verified: "yes" });
    expect(erased.status).toBe(303);
    expect(erased.headers.get("location")).toBe("/admin/privacy?done=erased");
    expect(erased.headers.get("cache-control")).toBe("no-store");
  });

  it("ends a session on logging out, with the cookie removed", async () => {
    const out = await post("/admin/logout", {});
    expect(out.headers.get("location")).toBe("/admin/login?done=logged_out");
    expect(out.headers.get("set-cookie")).toBe("vitanor_admin=; Max-Age=0; Path=/admin; HttpOnly; SameSite=Strict");
    const after = await get("/admin/orders");
    expect(after.headers.get("location")).toBe("/admin/login?next=%2Fadmin%2Forders&done=session_ended");
  });
});

import { asc, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCode, issueWelcomeCode } from "../codes/codes.server";
import { auditLog } from "../operators/schema";
import { installStore, type Store } from "../store/store.server";
import { useTestDatabase } from "../test-support/databases";
import { handleAdminRequest } from "./admin-handler.server";
import { addOperator } from "./operators.server";

const origin = "http://127.0.0.1:4000";
const password = "a long enough password";

describe("the codes pages", () => {
  const database = useTestDatabase("pglite");
  const cookies = { owner: "", support: "" };

  const get = (who: keyof typeof cookies, path: string) => handleAdminRequest(new Request(`${origin}${path}`, { headers: { cookie: cookies[who] } }));
  const post = (who: keyof typeof cookies | null, path: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const one of [value].flat()) body.append(name, one);
    return handleAdminRequest(new Request(`${origin}${path}`, { method: "POST", body, headers: { cookie: who ? cookies[who] : "", origin, "content-type": "application/x-www-form-urlencoded" } }));
  };

  beforeAll(async () => {
    installStore({ db: database.db, settings: { publicUrl: origin, storeMode: "test" } } as unknown as Store);
    for (const role of ["owner", "support"] as const) {
      await addOperator(database.db, { email: `${role}@example.com`, role, password });
      const login = await post(null, "/admin/login", { email: `${role}@example.com`, password, next: "/admin/codes" });
      cookies[role] = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    }
  });

  afterAll(() => {
    installStore(undefined);
  });

  const codeAudit = () => database.db.select({ action: auditLog.action, email: auditLog.operatorEmail, detail: auditLog.detail }).from(auditLog).where(like(auditLog.action, "code_%")).orderBy(asc(auditLog.id));

  it("lets an owner create a code, stored normalised with its terms and audited", async () => {
    const created = await post("owner", "/admin/codes", {
      code: "autumn-15",
      kind: "amount",
      amount_EUR: "5,00",
      amount_CHF: "5",
      minimum_EUR: "30",
      country: ["DE", "AT"],
      validUntil: "2026-12-31",
      maxRedemptions: "50",
      oncePerCustomer: "yes",
    });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe("/admin/codes?done=created");
    expect(await findCode(database.db, "AUTUMN15")).toMatchObject({
      reduction: { kind: "amount", amountMinor: { EUR: 500, CHF: 500 } },
      minimumMinor: { EUR: 3000 },
      countries: ["DE", "AT"],
      validUntil: new Date("2027-01-01T00:00:00Z"),
      maxRedemptions: 50,
      oncePerCustomer: true,
      firstOrderOnly: false,
      active: true,
      welcome: false,
    });
    expect(await codeAudit()).toEqual([{ action: "code_created", email: "owner@example.com", detail: expect.objectContaining({ code: "AUTUMN15", kind: "amount", maxRedemptions: 50 }) }]);

    const html = await (await get("owner", "/admin/codes?done=created")).text();
    expect(html).toContain('data-code="AUTUMN15"');
    expect(html).toMatch(/€5\.00, CHF\s5\.00 off/);
    expect(html).toContain("to 2026-12-31 included");
    expect(html).toContain('data-testid="code-create"');
  });

  it("shows a refused form again with each field's reason and what was typed, and refuses a code that exists", async () => {
    const refused = await post("owner", "/admin/codes", { code: "no way!", kind: "percent", percent: "95", minimum_GBP: "lots", maxRedemptions: "7" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    for (const field of ["code", "percent", "minimum_GBP"]) expect(html).toContain(`data-testid="code-error-${field}"`);
    expect(html).toContain('value="no way!"');
    expect(html).toContain('value="lots"');
    expect(html).toContain('value="7"');

    const taken = await post("owner", "/admin/codes", { code: "Autumn 15", kind: "percent", percent: "10" });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("The code AUTUMN15 exists already");
    expect(await codeAudit()).toHaveLength(1);
  });

  it("lets support read the list but neither create nor deactivate, and changes nothing", async () => {
    const list = await get("support", "/admin/codes");
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('data-code="AUTUMN15"');
    expect(html).not.toContain('data-testid="code-create"');
    expect(html).not.toContain('data-testid="code-deactivate"');
    expect((await post("support", "/admin/codes", { code: "SUPPORT10", kind: "percent", percent: "10" })).status).toBe(403);
    expect((await post("support", "/admin/codes/AUTUMN15/deactivate", {})).status).toBe(403);
    expect(await findCode(database.db, "SUPPORT10")).toBeNull();
    expect(await findCode(database.db, "AUTUMN15")).toMatchObject({ active: true });
    expect(await codeAudit()).toHaveLength(1);
  });

  it("lets an owner deactivate and reactivate a code, audited, but not a welcome code or one that does not exist", async () => {
    const deactivated = await post("owner", "/admin/codes/AUTUMN15/deactivate", {});
    expect(deactivated.headers.get("location")).toBe("/admin/codes?done=deactivated");
    expect(await findCode(database.db, "AUTUMN15")).toMatchObject({ active: false });
    const html = await (await get("owner", "/admin/codes")).text();
    expect(html).toMatch(/data-code="AUTUMN15".*?data-testid="code-status">deactivated</s);
    expect(html).toContain('data-testid="code-reactivate"');

    expect((await post("owner", "/admin/codes/AUTUMN15/reactivate", {})).headers.get("location")).toBe("/admin/codes?done=reactivated");
    expect(await findCode(database.db, "AUTUMN15")).toMatchObject({ active: true });

    const welcome = await issueWelcomeCode(database.db, new Date());
    expect((await post("owner", `/admin/codes/${welcome.code}/deactivate`, {})).status).toBe(404);
    expect((await post("owner", "/admin/codes/NOSUCHCODE/deactivate", {})).status).toBe(404);
    expect((await post("owner", "/admin/codes/lower-case/deactivate", {})).status).toBe(404);
    expect((await codeAudit()).map((entry) => entry.action)).toEqual(["code_created", "code_deactivated", "code_reactivated"]);
  });
});

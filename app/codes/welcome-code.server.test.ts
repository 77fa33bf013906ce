import { describe, expect, it } from "vitest";
import { loader } from "../routes/welcome-code";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { findCode } from "./codes.server";
import { answerWelcomeCodeRequest } from "./welcome-code.server";
import type { IssuedWelcomeCode } from "./welcome-code-request";

const publicUrl = "https://shop.example.com";
const now = new Date("2026-03-01T10:00:00Z");

function post(headers: Record<string, string>, url = "http://127.0.0.1:3000/welcome-code"): Request {
  return new Request(url, { method: "POST", headers });
}

describe.each(databaseKinds)("the welcome code endpoint on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("issues a different code to each visitor, stored as a single-use first-order code, and no cache keeps it", async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => answerWelcomeCodeRequest(database.db, post({ Origin: "http://127.0.0.1:3000", "Sec-Fetch-Site": "same-origin" }), publicUrl, now)),
    );
    const issued: IssuedWelcomeCode[] = [];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      issued.push((await answer.json()) as IssuedWelcomeCode);
    }
    expect(new Set(issued.map(({ code }) => code)).size).toBe(5);
    for (const { code, validUntil } of issued) {
      expect(code).toMatch(/^HELLO[A-HJ-NP-Z2-9]{8}$/);
      expect(validUntil).toBe("2026-03-31T10:00:00.000Z");
    }
    expect(await findCode(database.db, issued[0]?.code ?? "")).toMatchObject({
      reduction: { kind: "percent", percent: 10 },
      maxRedemptions: 1,
      oncePerCustomer: true,
      firstOrderOnly: true,
      welcome: true,
      validFrom: now,
    });
  });

  it("takes a post from the store's public address too (behind a proxy)", async () => {
    const answer = await answerWelcomeCodeRequest(database.db, post({ Origin: publicUrl }), publicUrl, now);
    expect(answer.status).toBe(200);
  });

  it.each([
    ["another site's page", { Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" }],
    ["another site that claims our origin", { Origin: publicUrl, "Sec-Fetch-Site": "same-site" }],
    ["a client without Origin", {}],
    ["a sandboxed page", { Origin: "null" }],
  ])("refuses %s with 403 and issues nothing", async (_name, headers) => {
    const answer = await answerWelcomeCodeRequest(database.db, post(headers), publicUrl, now);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toBe("");
  });

  it("issues nothing to a GET", async () => {
    const answer = await answerWelcomeCodeRequest(database.db, new Request("http://127.0.0.1:3000/welcome-code", { headers: { Origin: publicUrl } }), publicUrl, now);
    expect(answer.status).toBe(405);
  });
});

describe("the welcome code route", () => {
  it("answers a GET with 405 and says only POST is allowed", () => {
    const answer = loader();
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});

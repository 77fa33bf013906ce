import { describe, expect, it } from "vitest";
import { openDatabase } from "./database.server";

describe("a DATABASE_URL nobody answers at", () => {
  it.each([
    ["postgres://shop:s3cret-pass@127.0.0.1:1/shop", "127.0.0.1:1"],
    ["postgresql://shop:s3cret-pass@127.0.0.1:9/shop?sslmode=disable", "127.0.0.1:9"],
  ])("stops the start with a message naming DATABASE_URL and the server (%s), never the password", async (url, server) => {
    const failure = await openDatabase({ url }).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failure).toContain("DATABASE_URL");
    expect(failure).toContain(server);
    expect(failure).not.toContain("s3cret-pass");
  });
});

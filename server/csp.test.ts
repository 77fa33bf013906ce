import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes, noThirdPartyOrigins, nonceSource } from "./csp";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it.each([
    ["<script>a()</script>", [sha("a()")]],
    ['<script type="module">import "x"</script><script src="/x.js"></script>', [sha('import "x"')]],
    ["<script>a()</script><script>a()</script><script nonce=\"n\">b\n()</script>", [sha("a()"), sha("b\n()")]],
    ["<p>no scripts</p>", []],
  ])("%s", (html, expected) => {
    expect(inlineScriptHashes(html)).toEqual(expected);
  });
});

describe("contentSecurityPolicy", () => {
  it("allows only our origin and the given inline scripts", () => {
    const policy = contentSecurityPolicy([nonceSource("abc")], noThirdPartyOrigins);
    expect(policy).toContain("script-src 'self' 'nonce-abc'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("frame-src");
  });

  it("adds the third-party origins it is given, per directive", () => {
    const policy = contentSecurityPolicy([], { script: ["https://s.example"], frame: ["https://f.example"], img: ["https://i.example"], connect: ["https://c.example"] });
    expect(policy).toContain("script-src 'self' https://s.example");
    expect(policy).toContain("frame-src 'self' https://f.example");
    expect(policy).toContain("img-src 'self' data: https://i.example");
    expect(policy).toContain("connect-src 'self' https://c.example");
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes, nonceSource } from "./csp";

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
    const policy = contentSecurityPolicy([nonceSource("abc")]);
    expect(policy).toContain("script-src 'self' 'nonce-abc'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("imagedelivery");
    expect(policy).not.toContain("googletagmanager");
  });

  it("adds only the origins the settings switch on", () => {
    const policy = contentSecurityPolicy([], { IMAGE_PROVIDER: "cloudflare", GTM_ID: "GTM-ABC123" });
    expect(policy).toContain("img-src 'self' data: https://imagedelivery.net https://www.googletagmanager.com");
    expect(policy).toContain("script-src 'self' https://www.googletagmanager.com");
    expect(policy).toContain("connect-src 'self' https://www.googletagmanager.com https://*.google-analytics.com");
  });
});

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

describe("contentSecurityPolicy with Stripe configured", () => {
  it.each([
    [
      "Stripe.js from Stripe",
      { STRIPE_PUBLISHABLE_KEY: "pk_live_x" },
      {
        script: "script-src 'self' https://js.stripe.com https://*.js.stripe.com",
        frame: "frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com",
        connect: "connect-src 'self' https://api.stripe.com",
      },
    ],
    [
      "a stand-in served elsewhere",
      { STRIPE_PUBLISHABLE_KEY: "pk_test_x", STRIPE_JS_URL: "http://127.0.0.1:4100/v3" },
      { script: "script-src 'self' http://127.0.0.1:4100", frame: "frame-src 'self' http://127.0.0.1:4100", connect: "connect-src 'self' http://127.0.0.1:4100" },
    ],
  ])("opens every page to %s", (_, env, expected) => {
    const policy = contentSecurityPolicy([], env);
    expect(policy).toContain(expected.script);
    expect(policy).toContain(expected.frame);
    expect(policy).toContain(expected.connect);
  });

  it("opens nothing for Stripe while it is not configured", () => {
    const policy = contentSecurityPolicy([], { STRIPE_JS_URL: "https://js.stripe.com/v3/" });
    expect(policy).not.toContain("stripe");
    expect(policy).not.toContain("frame-src");
  });
});

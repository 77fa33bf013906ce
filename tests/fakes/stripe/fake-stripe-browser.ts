/**
 * Test support only: the browser side of the Stripe fake. A stand-in for Stripe.js (`/v3`) whose
 * Payment Element is one card-number field, the endpoint it creates ConfirmationTokens at with
 * the publishable key, and the 3-D Secure page a `redirect_to_url` leads to.
 */

/** Card numbers typed into the fake element, as Stripe's test cards behave. */
const testCards: Readonly<Record<string, string>> = {
  "4242424242424242": "pm_card_visa",
  "4000000000000002": "pm_card_chargeDeclined",
  "4000000000009995": "pm_card_chargeDeclinedInsufficientFunds",
  "4000002760003184": "pm_card_authenticationRequired",
};

export interface BrowserAnswer {
  status: number;
  contentType: string;
  body: string;
  location?: string;
}

export interface FakeStripeBrowserSide {
  /** A live-mode fake (an `sk_live_` key) takes `pk_live_` keys, a test-mode one `pk_test_` keys. */
  livemode: boolean;
  confirmationToken(paymentMethod: string): string;
  authenticate(paymentIntentId: string, approved: boolean): void;
  returnUrlOf(paymentIntentId: string): string | null;
}

const fakeStripeJs = `(function () {
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  window.Stripe = function (key) {
    return {
      elements: function () {
        var number = null;
        return {
          create: function () {
            return {
              mount: function (target) {
                var host = typeof target === "string" ? document.querySelector(target) : target;
                var label = document.createElement("label");
                label.textContent = "Card number ";
                number = document.createElement("input");
                number.setAttribute("data-fake-stripe", "number");
                number.setAttribute("inputmode", "numeric");
                label.appendChild(number);
                host.replaceChildren(label);
              },
              destroy: function () {},
            };
          },
          submit: function () {
            return Promise.resolve(number && number.value.replace(/\\D/g, "") ? {} : { error: { message: "Your card number is incomplete." } });
          },
          cardNumber: function () {
            return number ? number.value.replace(/\\D/g, "") : "";
          },
        };
      },
      createConfirmationToken: function (params) {
        var body = "key=" + encodeURIComponent(key) + "&card_number=" + params.elements.cardNumber();
        return fetch(origin + "/v1/confirmation_tokens", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: body }).then(function (response) {
          return response.json().then(function (json) {
            return response.ok ? { confirmationToken: json } : { error: json.error };
          });
        });
      },
    };
  };
})();
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** The answer to a browser's request, or null for a server-side API request. */
export function browserRoute(fake: FakeStripeBrowserSide, method: string, url: URL, rawBody: string): BrowserAnswer | null {
  if (method === "GET" && url.pathname === "/v3") return { status: 200, contentType: "text/javascript", body: fakeStripeJs };
  if (method === "POST" && url.pathname === "/v1/confirmation_tokens") {
    const form = new URLSearchParams(rawBody);
    if (!form.get("key")?.startsWith(fake.livemode ? "pk_live_" : "pk_test_")) return { status: 401, contentType: "application/json", body: JSON.stringify({ error: { message: "Invalid publishable key." } }) };
    const method = testCards[form.get("card_number") ?? ""];
    if (!method) return { status: 402, contentType: "application/json", body: JSON.stringify({ error: { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect." } }) };
    return { status: 200, contentType: "application/json", body: JSON.stringify({ id: fake.confirmationToken(method), object: "confirmation_token" }) };
  }
  const authenticate = /^\/fake\/authenticate\/([^/]+)$/.exec(url.pathname);
  if (authenticate?.[1]) {
    const intentId = decodeURIComponent(authenticate[1]);
    if (method === "GET") {
      const form = (answer: string, label: string) => `<form method="post"><input type="hidden" name="answer" value="${answer}"><button data-testid="stripe-3ds-${answer}">${label}</button></form>`;
      return { status: 200, contentType: "text/html", body: page("3-D Secure (test)", `<h1>Authenticate this payment</h1>${form("approve", "Complete")}${form("fail", "Fail")}`) };
    }
    fake.authenticate(intentId, new URLSearchParams(rawBody).get("answer") === "approve");
    const back = new URL(fake.returnUrlOf(intentId) ?? "/");
    back.searchParams.set("payment_intent", intentId);
    return { status: 303, contentType: "text/plain", body: "", location: back.toString() };
  }
  return null;
}

/**
 * Test support only: the browser side of the Stripe fake. A stand-in for Stripe.js (`/v3`) whose
 * Payment Element is one card-number field, the endpoint it creates ConfirmationTokens at with
 * the publishable key, the 3-D Secure page a `redirect_to_url` leads to, and `handleNextAction`,
 * which shows the same challenge in the page for a `use_stripe_sdk` next action.
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
  /** The PaymentIntent this client secret belongs to, as Stripe.js may read it with the publishable key; null for a wrong secret. */
  intentOfClientSecret(clientSecret: string): Record<string, unknown> | null;
  paymentIntent(paymentIntentId: string): Record<string, unknown>;
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
      // docs.stripe.com/js/payment_intents/handle_next_action: finishes a requires_action intent
      // (rejects for another status) and resolves { paymentIntent } or { error }. The challenge is
      // Stripe's test page in a modal: Complete succeeds, Fail fails authentication.
      handleNextAction: function (options) {
        var secret = (options && options.clientSecret) || "";
        var post = function (path, body) {
          return fetch(origin + path, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: body }).then(function (response) {
            return response.json().then(function (json) {
              return { ok: response.ok, json: json };
            });
          });
        };
        return post("/fake/next-action", "key=" + encodeURIComponent(key) + "&client_secret=" + encodeURIComponent(secret)).then(function (found) {
          if (!found.ok) throw new Error(found.json.error.message);
          var intentId = found.json.id;
          return new Promise(function (resolve) {
            var dialog = document.createElement("div");
            dialog.setAttribute("role", "dialog");
            dialog.setAttribute("aria-modal", "true");
            dialog.setAttribute("aria-label", "3-D Secure (test)");
            dialog.setAttribute("data-fake-stripe", "challenge");
            dialog.style.cssText = "position:fixed;inset:10%;background:#fff;border:1px solid #000;padding:1em;z-index:2147483647";
            var heading = document.createElement("h2");
            heading.textContent = "Authenticate this payment";
            dialog.appendChild(heading);
            [["approve", "Complete"], ["fail", "Fail"]].forEach(function (choice) {
              var button = document.createElement("button");
              button.type = "button";
              button.textContent = choice[1];
              button.setAttribute("data-testid", "stripe-3ds-" + choice[0]);
              button.addEventListener("click", function () {
                post("/fake/authenticate/" + encodeURIComponent(intentId) + "?handle_next_action=1", "answer=" + choice[0]).then(function (answer) {
                  dialog.remove();
                  var intent = answer.json.payment_intent;
                  var failure = intent.last_payment_error;
                  resolve(intent.status === "requires_payment_method" ? { error: { type: failure.type, code: failure.code, message: failure.message, payment_intent: intent } } : { paymentIntent: intent });
                });
              });
              dialog.appendChild(button);
            });
            document.body.appendChild(dialog);
          });
        });
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
  if (method === "POST" && url.pathname === "/fake/next-action") {
    const form = new URLSearchParams(rawBody);
    const json = (status: number, body: unknown): BrowserAnswer => ({ status, contentType: "application/json", body: JSON.stringify(body) });
    if (!form.get("key")?.startsWith(fake.livemode ? "pk_live_" : "pk_test_")) return json(401, { error: { message: "Invalid publishable key." } });
    const intent = fake.intentOfClientSecret(form.get("client_secret") ?? "");
    if (!intent) return json(404, { error: { type: "invalid_request_error", message: "No such payment_intent client secret." } });
    const nextAction = intent.next_action as { type?: string } | null;
    if (intent.status !== "requires_action" || nextAction?.type !== "use_stripe_sdk") {
      return json(400, { error: { type: "invalid_request_error", message: `handleNextAction: the PaymentIntent is ${String(intent.status)}, not requires_action with use_stripe_sdk.` } });
    }
    return json(200, { id: intent.id });
  }
  const authenticate = /^\/fake\/authenticate\/([^/]+)$/.exec(url.pathname);
  if (authenticate?.[1]) {
    const intentId = decodeURIComponent(authenticate[1]);
    if (method === "GET") {
      const form = (answer: string, label: string) => `<form method="post"><input type="hidden" name="answer" value="${answer}"><button data-testid="stripe-3ds-${answer}">${label}</button></form>`;
      return { status: 200, contentType: "text/html", body: page("3-D Secure (test)", `<h1>Authenticate this payment</h1>${form("approve", "Complete")}${form("fail", "Fail")}`) };
    }
    fake.authenticate(intentId, new URLSearchParams(rawBody).get("answer") === "approve");
    // Stripe.js's modal reads the intent afterwards instead of leaving the page.
    if (url.searchParams.has("handle_next_action")) return { status: 200, contentType: "application/json", body: JSON.stringify({ payment_intent: fake.paymentIntent(intentId) }) };
    const back = new URL(fake.returnUrlOf(intentId) ?? "/");
    back.searchParams.set("payment_intent", intentId);
    return { status: 303, contentType: "text/plain", body: "", location: back.toString() };
  }
  return null;
}

import { passed, warned, type PreflightCheck } from "../payments/preflight-check";
import type { ConversionSettings, Ga4Settings, MetaSettings } from "./conversion-settings";
import { postToGa4, postToMeta, type Fetch } from "./conversions.server";
import { metaTestEventCode } from "./payloads";
import { hashedEmail, metaEventsBody } from "./payloads";

/**
 * The go-live check's lines for the ad platforms that are configured, each tried with the
 * platform's own test facility, so that nothing reaches the reports. A wrong credential loses
 * attribution, not money or orders: it warns and does not stop a live start.
 */

const metaName = "Meta Conversions API";
const ga4Name = "GA4 Measurement Protocol";


/** What a platform said, shortened, for a check's line. */
async function answerOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { message?: string } };
    return body.error?.message ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

async function metaCheck(meta: MetaSettings, publicUrl: string, send: Fetch): Promise<PreflightCheck> {
  const event = {
    event_name: "PageView",
    event_time: Math.floor(Date.now() / 1000),
    action_source: "website",
    event_source_url: publicUrl,
    user_data: { external_id: [hashedEmail("go-live check")], client_user_agent: "go-live check" },
  };
  try {
    const response = await postToMeta(meta, metaEventsBody([event], meta.accessToken, metaTestEventCode), send);
    if (response.ok) return passed(metaName, `pixel ${meta.pixelId} took a test event (${metaTestEventCode} under Test events)`);
    return warned(metaName, `pixel ${meta.pixelId} refused a test event: ${await answerOf(response)}`, "Check META_PIXEL_ID and META_CAPI_TOKEN (a token generated for this pixel in Events Manager).");
  } catch (error) {
    return warned(metaName, `does not answer: ${error instanceof Error ? error.message : String(error)}`, "Check META_API_URL, or unset it for Meta's own address.");
  }
}

async function ga4Check(ga4: Ga4Settings, send: Fetch): Promise<PreflightCheck> {
  const body = { client_id: "1.1", events: [{ name: "purchase", params: { transaction_id: "GO-LIVE-CHECK", value: 1, currency: "EUR", items: [{ item_id: "check", item_name: "check", price: 1, quantity: 1 }] } }] };
  try {
    const response = await postToGa4(ga4, "/debug/mp/collect", body, send);
    if (!response.ok) return warned(ga4Name, `the validation server answered ${response.status}: ${await answerOf(response)}`, "Check GA4_MEASUREMENT_ID and GA4_API_URL.");
    const { validationMessages = [] } = (await response.json()) as { validationMessages?: { description?: string }[] };
    if (validationMessages.length > 0) return warned(ga4Name, `the validation server refused a purchase: ${validationMessages.map((message) => message.description).join("; ")}`, "Check GA4_MEASUREMENT_ID.");
    // Google's validation server checks the event and the measurement id, never the secret.
    return passed(ga4Name, `${ga4.measurementId} took a purchase on the validation server (which does not check GA4_API_SECRET: compare it with the stream's)`);
  } catch (error) {
    return warned(ga4Name, `does not answer: ${error instanceof Error ? error.message : String(error)}`, "Check GA4_API_URL, or unset it for Google's own address.");
  }
}

export async function conversionChecks(settings: ConversionSettings, publicUrl: string, send: Fetch = fetch): Promise<PreflightCheck[]> {
  const checks: PreflightCheck[] = [];
  if (settings.meta) checks.push(await metaCheck(settings.meta, publicUrl, send));
  if (settings.ga4) checks.push(await ga4Check(settings.ga4, send));
  return checks;
}

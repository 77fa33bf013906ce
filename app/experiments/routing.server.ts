import { store } from "../store/store.server";
import { decide, type EntryRequest, type Redirect } from "./assignment.server";
import { randomUUID } from "node:crypto";
import { bufferExposure, countForArm, liveExperiments } from "./experiments.server";
import { carriedExposure } from "./exposure-token.server";

/**
 * The server's hook (exported by `app/entry.server.tsx`): where a split test sends a page request
 * (answered in place or by a redirect, as the server can), or null to serve it as usual.
 * Assignments are counted as they are made, in memory,
 * and written shortly after, without holding up the answer.
 */
export async function routeExperiment(request: EntryRequest): Promise<Redirect | null> {
  const { db, signingKey } = store();
  const decision = decide(request, await liveExperiments(db), randomUUID, signingKey);
  if (decision.kind === "pass") return null;
  if (decision.exposure) bufferExposure(db, decision.exposure);
  return decision.redirect;
}

/**
 * Counts a funnel page view for the arm its page carried: the beacon's `Referer` is the page's
 * own address (same origin, so the browser sends it whole), so no script on the page needs to
 * know about split tests. Views of tests that are not running, and views whose `xp` has no valid
 * exposure token (a pasted arm URL), are not counted.
 */
export async function countArmView(referer: string | null, view: { step: string; market: string }): Promise<void> {
  if (!referer) return;
  const { db, signingKey } = store();
  let xp: ReturnType<typeof carriedExposure>;
  try {
    xp = carriedExposure(signingKey, new URL(referer).searchParams.get("xp"));
  } catch {
    return;
  }
  if (!xp) return;
  const running = [...(await liveExperiments(db)).values()].some((experiment) => experiment.key === xp.key && experiment.status === "running" && xp.arm < experiment.arms.length);
  if (running) await countForArm(db, { key: xp.key, arm: xp.arm, market: view.market, step: view.step });
}

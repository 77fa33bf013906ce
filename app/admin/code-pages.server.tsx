import { createCode, findCode, setCodeActive } from "../codes/codes.server";
import type { CodeTerms } from "../codes/code-terms";
import { emptyCodeDraft, readCodeForm, type CodeDraft, type CodeFormErrors } from "../codes/code-form";
import { listCodesWithFigures } from "../orders/code-figures.server";
import { recordAudit } from "../operators/audit.server";
import { forbidden, noticeFrom, notFound, param, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import { readForm } from "./form.server";
import { page, redirect } from "./http.server";
import { may } from "./operators.server";
import { CodesView } from "./views/codes-view";
import type { Notice } from "./views/frame";

/**
 * Discount codes in the back office: owners create, deactivate and reactivate them; support reads
 * the list and its figures. Every change is written to the audit log in the transaction that makes it.
 */

const notices: Record<string, Notice> = {
  created: { kind: "ok", text: "The code is saved and can be used at the checkout on its terms." },
  deactivated: { kind: "ok", text: "The code is deactivated: the checkout refuses it from now on. Orders already placed with it keep their discount." },
  reactivated: { kind: "ok", text: "The code is active again on its terms." },
};

const notAllowed = "Only an owner creates, deactivates and reactivates discount codes. Nothing was changed.";

async function showList(context: AdminContext, notice: Notice | null, draft: CodeDraft = emptyCodeDraft, errors: CodeFormErrors = {}, status = 200): Promise<Answer> {
  const { store, operator } = context;
  // A store in test mode has only test orders, so they count there.
  const includeTest = store.settings.storeMode === "test";
  const list = await listCodesWithFigures(store.db, { includeTest });
  return page(<CodesView operator={operator} list={list} now={new Date()} includeTest={includeTest} draft={draft} errors={errors} notice={notice} />, status);
}

/** The terms as the audit log keeps them: one value per field. */
function auditDetail(terms: CodeTerms): Record<string, string | number | boolean | null> {
  const reduction = terms.reduction;
  return {
    code: terms.code,
    kind: reduction.kind,
    off: reduction.kind === "percent" ? reduction.percent : JSON.stringify(reduction.amountMinor),
    minimum: JSON.stringify(terms.minimumMinor),
    countries: terms.countries.join(" "),
    validFrom: terms.validFrom?.toISOString() ?? null,
    validUntil: terms.validUntil?.toISOString() ?? null,
    maxRedemptions: terms.maxRedemptions,
    oncePerCustomer: terms.oncePerCustomer,
    firstOrderOnly: terms.firstOrderOnly,
  };
}

/** Deactivating or reactivating a code, as its row's button posts it. */
function setActive(active: boolean) {
  return async (context: AdminContext): Promise<Answer> => {
    const text = param(context.params, "code", /^[A-Z0-9]{3,32}$/);
    if (!may(context.operator, "manage_codes")) return forbidden(notAllowed);
    const changed = await context.store.db.transaction(async (tx) => {
      const code = await findCode(tx, text, true);
      // Welcome codes are one per visitor, not managed one by one.
      if (!code || code.welcome) return false;
      await setCodeActive(tx, code.id, active);
      await recordAudit(tx, context.operator, active ? "code_reactivated" : "code_deactivated", { detail: { code: code.code } });
      return true;
    });
    if (!changed) return notFound("There is no such discount code.");
    return redirect(`/admin/codes?done=${active ? "reactivated" : "deactivated"}`);
  };
}

export const codeRoutes: readonly AdminRoute[] = [
  {
    path: "codes",
    nav: { label: "Codes", permission: "view" },
    loader: (context) => showList(context, noticeFrom(context.url, notices)),
    async action(context) {
      if (!may(context.operator, "manage_codes")) return forbidden(notAllowed);
      const read = readCodeForm(await readForm(context.request));
      if (!read.ok) return showList(context, null, read.draft, read.errors, 400);
      const { terms } = read;
      const created = await context.store.db.transaction(async (tx) => {
        const stored = await createCode(tx, terms);
        if (stored) await recordAudit(tx, context.operator, "code_created", { detail: auditDetail(terms) });
        return stored;
      });
      if (!created) return showList(context, null, read.draft, { code: `The code ${terms.code} exists already (codes are compared in capitals, without spaces or dashes).` }, 409);
      return redirect("/admin/codes?done=created");
    },
  },
  { path: "codes/:code/deactivate", action: setActive(false) },
  { path: "codes/:code/reactivate", action: setActive(true) },
];

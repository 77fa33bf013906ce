import { forbidden, noticeFrom, type AdminRoute } from "./admin-route.server";
import { recordAudit } from "../operators/audit.server";
import { download, page, redirect } from "./http.server";
import { readForm } from "./form.server";
import { may } from "./operators.server";
import { eraseCustomerData, exportCustomerData } from "./privacy.server";
import { PrivacyView } from "./views/privacy-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {
  erased: { kind: "ok", text: "Erased: the customer's personal data is anonymised." },
};

const nothingStored = (what: string): Notice => ({ kind: "error", text: `Nothing is stored for this address, so nothing was ${what}. Check the spelling.` });

export const privacyRoutes: readonly AdminRoute[] = [
  { path: "privacy", nav: { label: "Privacy requests", permission: "view" }, loader: async ({ operator, url }) => page(<PrivacyView operator={operator} email="" notice={noticeFrom(url, notices)} />) },
  {
    path: "privacy/export",
    async action({ store, operator, request }) {
      if (!may(operator, "export_data")) return forbidden("Your role may not export a customer's data.");
      const email = ((await readForm(request)).get("email") ?? "").trim();
      const data = await exportCustomerData(store.db, email);
      if (!data) return page(<PrivacyView operator={operator} email={email} notice={nothingStored("exported")} />, 404);
      await recordAudit(store.db, operator, "customer_data_exported", { detail: { orders: data.orders.length } });
      return download(JSON.stringify(data, null, 2), "application/json; charset=utf-8", `customer-data-${data.exportedAt.slice(0, 10)}.json`);
    },
  },
  {
    path: "privacy/erase",
    async action({ store, operator, request }) {
      if (!may(operator, "erase")) return forbidden("Only an owner may erase a customer's data. Nothing was erased.");
      const form = await readForm(request);
      const email = (form.get("email") ?? "").trim();
      if (email.toLowerCase() !== (form.get("confirmEmail") ?? "").trim().toLowerCase() || form.get("verified") !== "yes") {
        return page(<PrivacyView operator={operator} email={email} notice={{ kind: "error", text: "The two addresses differ, or the check is not ticked. Nothing was erased." }} />, 400);
      }
      const result = await eraseCustomerData(store.db, operator, email);
      if (result.kind === "unknown") return page(<PrivacyView operator={operator} email={email} notice={nothingStored("erased")} />, 404);
      return redirect("/admin/privacy?done=erased");
    },
  },
];

import { createContext, useContext, type ReactNode } from "react";
import { markets } from "../../market/markets";
import type { Operator } from "../../operators/audit.server";
import { stylesheet } from "../http.server";

/** A section in the navigation: the path of its route below `/admin` names it. */
export interface NavItem {
  section: string;
  label: string;
}

/** The navigation the front door derives from the route list for the signed-in operator. */
export const Navigation = createContext<readonly NavItem[]>([]);

/** A section is named by its route's path below `/admin` (`orders`, `files`). */
export type SectionId = string;

export interface Notice {
  kind: "ok" | "error";
  text: string;
}

export function Document({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} · Back office`}</title>
        <link rel="stylesheet" href={stylesheet.path} />
      </head>
      <body>{children}</body>
    </html>
  );
}

export function NoticeBox({ notice }: { notice: Notice | null | undefined }) {
  if (!notice) return null;
  return (
    <p className={`notice ${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.text}
    </p>
  );
}

export function Frame({ operator, section, title, notice, children }: { operator: Operator; section: SectionId; title: string; notice?: Notice | null; children: ReactNode }) {
  const sections = useContext(Navigation);
  return (
    <Document title={title}>
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Vitanor back office</span>
        <nav aria-label="Back office">
          <ul>
            {sections.map((item) => (
              <li key={item.section}>
                <a href={`/admin/${item.section}`} aria-current={item.section === section ? "page" : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {operator.email} ({operator.role})
          </span>
          <form method="post" action="/admin/logout">
            <button type="submit" className="secondary">
              Log out
            </button>
          </form>
        </div>
      </header>
      <main id="content">
        <h1>{title}</h1>
        <NoticeBox notice={notice} />
        {children}
      </main>
    </Document>
  );
}

export function formatMinor(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(minor / 100);
}

/** Times in the back office are UTC, written the same way everywhere. */
export function formatTime(date: Date | null | undefined): string {
  return date ? `${date.toISOString().slice(0, 16).replace("T", " ")} UTC` : "—";
}

export const statusLabel = (status: string) => status.replace(/_/g, " ");

/** A choice of market by its country code, or none. */
export function MarketSelect({ value, noneLabel }: { value: string; noneLabel: string }) {
  return (
    <label>
      Market
      <select name="market" defaultValue={value}>
        <option value="">{noneLabel}</option>
        {markets.map((market) => (
          <option key={market.country} value={market.country}>
            {market.country}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A required choice of reason from a table of labels; without a default the operator must pick one. */
export function ReasonSelect({ label, reasons, defaultValue }: { label: string; reasons: Record<string, string>; defaultValue?: string }) {
  return (
    <label>
      {label}
      <select name="reason" required defaultValue={defaultValue ?? ""}>
        {defaultValue === undefined ? (
          <option value="" disabled>
            Choose…
          </option>
        ) : null}
        {Object.entries(reasons).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Newer and older pages of a list, each a plain link. */
export function Pager({ page, pages, link, label }: { page: number; pages: number; link: (page: number) => string; label: string }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? <a href={link(page - 1)}>← Newer</a> : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <a href={link(page + 1)}>Older →</a> : null}
    </nav>
  );
}

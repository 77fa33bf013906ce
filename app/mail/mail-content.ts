/**
 * What an e-mail says, as data: one structure rendered twice, as HTML (React) and as plain text,
 * so the two parts of a message can never say different things.
 */
export interface MailRow {
  label: string;
  value: string;
  /** Small print under the row: VAT rate, digital consent. */
  notes?: string[];
  strong?: boolean;
}

export interface MailSection {
  title?: string;
  paragraphs?: string[];
  /** A postal address, one line each, kept as lines in both parts. */
  address?: readonly string[];
  rows?: MailRow[];
  link?: { href: string; label: string };
}

export interface MailContent {
  lang: string;
  subject: string;
  preheader: string;
  /** Shown first and framed: the test-mode notice. */
  notice?: string;
  greeting: string;
  paragraphs: string[];
  sections: MailSection[];
  signature: string;
  contact: string;
}

export function mailText(content: MailContent): string {
  const out: string[] = [];
  if (content.notice) out.push(`*** ${content.notice} ***`, "");
  out.push(content.greeting, "", ...content.paragraphs.flatMap((paragraph) => [paragraph, ""]));
  for (const section of content.sections) {
    if (section.title) out.push(section.title.toUpperCase(), "-".repeat(section.title.length));
    if (section.address) out.push("", ...section.address.map((line) => `  ${line}`), "");
    for (const paragraph of section.paragraphs ?? []) out.push(paragraph);
    for (const row of section.rows ?? []) {
      out.push(`${row.label}: ${row.value}`);
      for (const note of row.notes ?? []) out.push(`  ${note}`);
    }
    if (section.link) out.push(`${section.link.label}: ${section.link.href}`);
    out.push("");
  }
  out.push(content.signature, "", content.contact, "");
  return out.join("\n");
}

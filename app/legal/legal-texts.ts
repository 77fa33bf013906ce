/** The information modal's sections (decision 6). */
export const modalSections = [
  "ingredients",
  "privacy",
  "termsOfService",
  "delivery",
  "refund",
  "contact",
  "claimOffer",
  "cancelOffer",
] as const;
export type ModalSection = (typeof modalSections)[number];
/** Opens the information modal on a section (the footer's links, and the modal's own tabs). */
export type OpenModal = (section: ModalSection) => void;

/** The sections that link to one another inside the modal. */
export const legalSections = ["privacy", "termsOfService", "delivery", "refund", "contact"] as const satisfies readonly ModalSection[];

export interface LegalText {
  title: string;
  paragraphs: string[];
}

export type LegalTexts = Record<ModalSection, LegalText>;

export function legalTextsPath(lang: string): string {
  return `/legal-texts/${lang}`;
}

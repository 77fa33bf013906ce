import type { ProductText } from "../funnel/content-schema";
import type { PlainRouteName } from "../funnel/route-table";

export type SupplementParticularsText = NonNullable<ProductText["particulars"]>;

/** One product of the range as the landing page presents it. */
export interface LandingProduct {
  id: string;
  name: string;
  /** Under `content/images/`, without the extension (`products/shape`). */
  image: string;
  /** The page that sells it. */
  route: PlainRouteName;
  tagline: string;
  ingredients: string;
  /** The mandatory food-supplement particulars; null for a digital product. */
  particulars: SupplementParticularsText | null;
}

export interface LandingNote {
  title: string;
  text: string;
}

/** Everything the landing page shows, in the visitor's language, messages already formatted. */
export interface LandingView {
  /** The document title. */
  title: string;
  heading: string;
  intro: string;
  quiz: { route: PlainRouteName; cta: string; note: string };
  /** The order button's label and the product of the offer it leads to. */
  offer: { cta: string; productName: string; image: string };
  range: {
    heading: string;
    intro: string;
    /** The legal name under which every product of the range is sold ("food supplement"). */
    supplement: string;
    /** The summary that opens a product's ingredients and particulars. */
    details: string;
    ingredientsTitle: string;
    particularsTitle: string;
    products: LandingProduct[];
  };
  notes: { guarantee: LandingNote; delivery: LandingNote; payment: LandingNote };
  closing: { heading: string; text: string };
}

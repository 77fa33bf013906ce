/** How the footer behaves on a given route (decision 41). */

/** The landing routes, where contact is an external help-centre link and no contact details show. */
const landingRoutes = new Set(["index", "index-2", "take", "take-2"]);

export function isLandingRoute(routeName: string): boolean {
  return landingRoutes.has(routeName);
}

export interface FooterBehaviour {
  /** Contact opens the information modal, or the external help centre in a new tab. */
  contact: "modal" | "help-centre";
  /** Terms leads to `terms-2` in a new tab on take, buy and offer routes, else in the same tab. */
  termsInNewTab: boolean;
  /** Phone, e-mail and postal address are shown outside the landing routes. */
  showContactDetails: boolean;
}

export function footerBehaviour(routeName: string): FooterBehaviour {
  const landing = isLandingRoute(routeName);
  return {
    contact: landing ? "help-centre" : "modal",
    termsInNewTab: /^(take|buy|offer)/.test(routeName),
    showContactDetails: !landing,
  };
}

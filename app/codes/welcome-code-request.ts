/**
 * Where the claim section asks for the visitor's own welcome code, and what it answers: the code
 * and the end of its validity (ISO 8601).
 */
export const welcomeCodePath = "/welcome-code";

export interface IssuedWelcomeCode {
  code: string;
  validUntil: string;
}

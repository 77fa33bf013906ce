/** sessionStorage, or nothing where the browser refuses it (some private modes, disabled storage). */
export function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** sessionStorage, or nothing where the browser refuses it (some private modes, disabled storage). */
export function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** localStorage, or nothing where the browser refuses it; reading the property itself may throw. */
export function localStore(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

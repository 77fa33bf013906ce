import { randomBytes, timingSafeEqual } from "node:crypto";
import { sign } from "../db/store-secret.server";
import { exposureTokenPattern, parseXp, xpValue } from "./experiment-model";

/**
 * The token of one exposure (docs/decisions/0035-exposure-tokens.md): made by the server when it
 * assigns a visitor to an arm, carried in `xp` through the funnel, and the only thing that lets an
 * order count for that arm. 36 base64url characters: the assignment's time (6 bytes, milliseconds),
 * 9 random bytes that tell two exposures apart, and 12 bytes of the store's signature over the
 * experiment, the arm and both, so no token can be made, moved to another arm or re-dated by hand.
 */

const signingPurpose = "experiment-exposure";
const payloadBytes = 15;
const payloadChars = 20;
const signatureChars = 16;

function signatureOf(signingKey: string, key: string, arm: number, payload: string): string {
  return sign(signingKey, signingPurpose, `${key}.${arm}.${payload}`).slice(0, signatureChars);
}

export function newExposureToken(signingKey: string, key: string, arm: number, now = Date.now(), random: Buffer = randomBytes(payloadBytes - 6)): string {
  const payload = Buffer.alloc(payloadBytes);
  payload.writeUIntBE(now, 0, 6);
  random.copy(payload, 6, 0, payloadBytes - 6);
  const text = payload.toString("base64url");
  return `${text}${signatureOf(signingKey, key, arm, text)}`;
}

/** When the exposure was made, if the token is the store's own for this experiment and arm; else null. */
export function readExposureToken(signingKey: string, key: string, arm: number, token: string): Date | null {
  if (!exposureTokenPattern.test(token)) return null;
  const payload = token.slice(0, payloadChars);
  const expected = Buffer.from(signatureOf(signingKey, key, arm, payload));
  const given = Buffer.from(token.slice(payloadChars));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return new Date(Buffer.from(payload, "base64url").readUIntBE(0, 6));
}

export interface CarriedExposure {
  key: string;
  arm: number;
  token: string;
  assignedAt: Date;
}

/** The exposure an `xp` value carries, when its token is valid; null for a bare or forged one. */
export function carriedExposure(signingKey: string, value: string | null | undefined): CarriedExposure | null {
  const xp = parseXp(value);
  if (!xp?.token) return null;
  const assignedAt = readExposureToken(signingKey, xp.key, xp.arm, xp.token);
  return assignedAt ? { key: xp.key, arm: xp.arm, token: xp.token, assignedAt } : null;
}

/**
 * What an order keeps of the checkout's `xp`: the arm (`key.arm`) and the token, only when the
 * token is valid. A pasted or hand-made `xp` leaves the order without an arm.
 */
export function armOfQuery(signingKey: string, value: string | null): { arm: string; token: string } | null {
  const exposure = carriedExposure(signingKey, value);
  return exposure ? { arm: xpValue(exposure.key, exposure.arm), token: exposure.token } : null;
}

/** The assignment time written in a token, without checking its signature (tokens stored with orders were checked then). */
export function assignedAtOf(token: string): Date | null {
  if (!exposureTokenPattern.test(token)) return null;
  return new Date(Buffer.from(token.slice(0, payloadChars), "base64url").readUIntBE(0, 6));
}

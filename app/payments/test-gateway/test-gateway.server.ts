import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/database.server";
import { testGatewayCharges, testGatewayMethods, testGatewayRefunds } from "./schema";
import type { ChargeSavedMethodInput, PaymentOutcome, PaymentProvider, RefundInput, RefundOutcome, StartPaymentInput } from "../provider";
import { cardDigits, testCardKind, type TestCardKind } from "./test-cards";

/**
 * Our own payment provider for test mode (decision 0013): it keeps a ledger of its own, as a real
 * provider does on its side, and shows its own authentication and bank pages. Never used live.
 */

type Charge = typeof testGatewayCharges.$inferSelect;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export const testGatewayPagePath = (step: "authenticate" | "bank", chargeId: string) => `/test-gateway/${step}/${chargeId}`;

function outcomeOf(charge: Charge): PaymentOutcome {
  switch (charge.status) {
    case "succeeded":
      return { status: "succeeded", providerRef: charge.id, reusableMethodRef: charge.savedMethodId };
    case "requires_action":
      return { status: "requires_action", providerRef: charge.id, actionUrl: testGatewayPagePath(charge.method === "bank" ? "bank" : "authenticate", charge.id) };
    default:
      return { status: "declined", providerRef: charge.id, code: (charge.declineCode as "card_declined") ?? "card_declined" };
  }
}

interface NewCharge {
  idempotencyKey: string;
  method: string;
  amountMinor: number;
  currency: string;
  returnUrl: string;
  saveMethod: boolean;
  cardKind: TestCardKind | null;
  cardLast4: string | null;
  savedMethodId: string | null;
  status: "succeeded" | "requires_action" | "declined";
  declineCode: string | null;
}

export class TestGateway implements PaymentProvider {
  readonly id = "test";

  constructor(private readonly db: Database) {}

  /** Records a charge once per idempotency key; a repeated call gets the first call's charge back. */
  private async record(charge: NewCharge): Promise<Charge> {
    const [inserted] = await this.db
      .insert(testGatewayCharges)
      .values({ id: newId("tgc"), ...charge })
      .onConflictDoNothing({ target: testGatewayCharges.idempotencyKey })
      .returning();
    if (inserted) return inserted;
    const [existing] = await this.db.select().from(testGatewayCharges).where(eq(testGatewayCharges.idempotencyKey, charge.idempotencyKey));
    if (!existing) throw new Error("Test gateway: a charge vanished between insert and read");
    return existing;
  }

  private async saveCard(kind: TestCardKind, last4: string): Promise<string> {
    const id = newId("tgm");
    await this.db.insert(testGatewayMethods).values({ id, cardKind: kind, last4 });
    return id;
  }

  async startPayment(input: StartPaymentInput): Promise<PaymentOutcome> {
    const base = {
      idempotencyKey: input.idempotencyKey,
      method: input.method,
      amountMinor: input.amountMinor,
      currency: input.currency,
      returnUrl: input.returnUrl,
      saveMethod: input.saveMethod,
    };
    if (input.method === "bank") {
      const charge = await this.record({ ...base, saveMethod: false, cardKind: null, cardLast4: null, savedMethodId: null, status: "requires_action", declineCode: null });
      return outcomeOf(charge);
    }
    const digits = cardDigits(input.details.number ?? "");
    const kind = testCardKind(digits);
    const card = { cardKind: kind, cardLast4: digits.slice(-4) || null };
    if (kind === null) return outcomeOf(await this.record({ ...base, ...card, savedMethodId: null, status: "declined", declineCode: "not_a_test_card" }));
    if (kind === "declined" || kind === "insufficientFunds") {
      const declineCode = kind === "declined" ? "card_declined" : "insufficient_funds";
      return outcomeOf(await this.record({ ...base, ...card, savedMethodId: null, status: "declined", declineCode }));
    }
    if (kind === "authenticateAlways" || kind === "authenticateFirst") {
      return outcomeOf(await this.record({ ...base, ...card, savedMethodId: null, status: "requires_action", declineCode: null }));
    }
    const [existing] = await this.db.select().from(testGatewayCharges).where(eq(testGatewayCharges.idempotencyKey, input.idempotencyKey));
    if (existing) return outcomeOf(existing);
    const savedMethodId = input.saveMethod ? await this.saveCard(kind, digits.slice(-4)) : null;
    return outcomeOf(await this.record({ ...base, ...card, savedMethodId, status: "succeeded", declineCode: null }));
  }

  async retrievePayment(providerRef: string): Promise<PaymentOutcome> {
    const charge = await this.charge(providerRef);
    if (!charge) return { status: "declined", providerRef, code: "provider_unavailable" };
    return outcomeOf(charge);
  }

  /** A charge still waiting for the buyer can no longer be approved; a paid one stays paid. */
  async cancelPayment(providerRef: string): Promise<PaymentOutcome> {
    return this.db.transaction(async (tx) => {
      const [charge] = await tx.select().from(testGatewayCharges).where(eq(testGatewayCharges.id, providerRef)).for("update");
      if (!charge) return { status: "declined", providerRef, code: "cancelled" };
      if (charge.status !== "requires_action") return outcomeOf(charge);
      const [cancelled] = await tx
        .update(testGatewayCharges)
        .set({ status: "declined", declineCode: "cancelled", updatedAt: new Date() })
        .where(eq(testGatewayCharges.id, providerRef))
        .returning();
      return outcomeOf(cancelled ?? charge);
    });
  }

  async chargeSavedMethod(input: ChargeSavedMethodInput): Promise<PaymentOutcome> {
    const [method] = await this.db.select().from(testGatewayMethods).where(eq(testGatewayMethods.id, input.reusableMethodRef));
    if (!method) return { status: "declined", providerRef: null, code: "card_declined" };
    const needsAuthentication = method.cardKind === "authenticateAlways";
    const charge = await this.record({
      idempotencyKey: input.idempotencyKey,
      method: "card",
      amountMinor: input.amountMinor,
      currency: input.currency,
      returnUrl: input.returnUrl,
      saveMethod: false,
      cardKind: method.cardKind as TestCardKind,
      cardLast4: method.last4,
      savedMethodId: method.id,
      status: needsAuthentication ? "requires_action" : "succeeded",
      declineCode: null,
    });
    return outcomeOf(charge);
  }

  async refund(input: RefundInput): Promise<RefundOutcome> {
    return this.db.transaction(async (tx) => {
      const [done] = await tx.select().from(testGatewayRefunds).where(eq(testGatewayRefunds.idempotencyKey, input.idempotencyKey));
      if (done) return { status: "succeeded", refundRef: done.id };
      const [charge] = await tx.select().from(testGatewayCharges).where(eq(testGatewayCharges.id, input.providerRef)).for("update");
      if (!charge || charge.status !== "succeeded") return { status: "failed", reason: "no such paid charge" };
      if (input.amountMinor <= 0 || charge.refundedMinor + input.amountMinor > charge.amountMinor) return { status: "failed", reason: "more than is left to refund" };
      const id = newId("tgr");
      await tx.insert(testGatewayRefunds).values({ id, idempotencyKey: input.idempotencyKey, chargeId: charge.id, amountMinor: input.amountMinor });
      await tx
        .update(testGatewayCharges)
        .set({ refundedMinor: sql`${testGatewayCharges.refundedMinor} + ${input.amountMinor}`, updatedAt: new Date() })
        .where(eq(testGatewayCharges.id, charge.id));
      return { status: "succeeded", refundRef: id };
    });
  }

  /** The gateway's own pages: a charge waiting for the buyer's approval at the bank or card issuer. */
  async charge(chargeId: string): Promise<Charge | undefined> {
    if (!/^tgc_[0-9a-f]{24}$/.test(chargeId)) return undefined;
    const [charge] = await this.db.select().from(testGatewayCharges).where(eq(testGatewayCharges.id, chargeId));
    return charge;
  }

  /**
   * The buyer's answer on the gateway's page. Only a charge still waiting changes, once; the
   * answer to return with is the charge's final state either way.
   */
  async answer(chargeId: string, approved: boolean): Promise<Charge | undefined> {
    return this.db.transaction(async (tx) => {
      const [charge] = await tx.select().from(testGatewayCharges).where(eq(testGatewayCharges.id, chargeId)).for("update");
      if (!charge || charge.status !== "requires_action") return charge;
      let savedMethodId = charge.savedMethodId;
      if (approved && charge.method === "card" && charge.saveMethod && charge.cardKind && !savedMethodId) {
        savedMethodId = newId("tgm");
        await tx.insert(testGatewayMethods).values({ id: savedMethodId, cardKind: charge.cardKind, last4: charge.cardLast4 ?? "" });
      }
      const declineCode = approved ? null : charge.method === "bank" ? "cancelled" : "authentication_failed";
      const [updated] = await tx
        .update(testGatewayCharges)
        .set({ status: approved ? "succeeded" : "declined", declineCode, savedMethodId, updatedAt: new Date() })
        .where(eq(testGatewayCharges.id, chargeId))
        .returning();
      return updated;
    });
  }
}

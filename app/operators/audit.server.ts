import type { Queryable } from "../db/database.server";
import { auditLog, type OperatorRole } from "./schema";

/** The operator a back-office request acts for. */
export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
}

/** Writes what an operator did, in the caller's transaction so the log and the change agree. */
export async function recordAudit(
  tx: Queryable,
  operator: Operator,
  action: string,
  about: { orderId?: string | null; detail?: Record<string, string | number | boolean | null> } = {},
): Promise<void> {
  await tx.insert(auditLog).values({
    operatorId: operator.id,
    operatorEmail: operator.email,
    action,
    orderId: about.orderId ?? null,
    detail: about.detail ?? {},
  });
}

/**
 * When a paid order must have left the warehouse. The delivery terms (content/legal, section
 * delivery; content/commerce/delivery.json) promise that a parcel leaves within one working day:
 * the deadline is the same time of day one working day (Monday to Friday) after payment, so an
 * order paid on Friday afternoon is due out on Monday afternoon. Public holidays are not counted
 * out, so the mark can come a day early on one, never late.
 */
export const dispatchWorkingDays = 1;

const day = 86_400_000;
const isWeekend = (date: Date) => date.getUTCDay() === 0 || date.getUTCDay() === 6;

export function dispatchDeadline(paidAt: Date): Date {
  let deadline = new Date(paidAt.getTime());
  // Paid at the weekend: the working day that counts starts on Monday morning.
  while (isWeekend(deadline)) deadline = new Date(Date.UTC(deadline.getUTCFullYear(), deadline.getUTCMonth(), deadline.getUTCDate() + 1));
  for (let left = dispatchWorkingDays; left > 0; ) {
    deadline = new Date(deadline.getTime() + day);
    if (!isWeekend(deadline)) left -= 1;
  }
  return deadline;
}

/** Past the promised dispatch time, and so to be shipped first and looked into. */
export function isOverdue(paidAt: Date, now: Date): boolean {
  return now.getTime() > dispatchDeadline(paidAt).getTime();
}

import type { ProductText } from "../funnel/content-schema";

type Particulars = NonNullable<ProductText["particulars"]>;

/**
 * The mandatory particulars of a food supplement (daily dose, do-not-exceed warning, not a
 * substitute for a varied diet, out of reach of children, storage, warnings), in the order the
 * offer pages list them.
 */
export function particularLines(particulars: Particulars): string[] {
  return [particulars.dailyDose, particulars.doNotExceed, particulars.notASubstitute, particulars.keepAway, particulars.storage, particulars.warnings].filter(Boolean);
}

export function SupplementParticulars({ particulars, className, testId }: { particulars: Particulars; className?: string; testId?: string }) {
  return (
    <ul className={className} data-testid={testId}>
      {particularLines(particulars).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

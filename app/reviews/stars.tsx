/**
 * A rating as five stars, filled to the tenth (4.3 fills four and a third): drawn twice, the
 * filled row clipped over the empty one. Screen readers get the label instead, or nothing when the
 * text beside the stars says the same.
 */
export function Stars({ value, label }: { value: number; label?: string }) {
  const percent = Math.max(0, Math.min(100, (value / 5) * 100));
  return (
    <span className="stars" {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}>
      <span className="stars__empty" aria-hidden="true">
        ★★★★★
      </span>
      <span className="stars__filled" aria-hidden="true" style={{ width: `${percent}%` }}>
        ★★★★★
      </span>
    </span>
  );
}

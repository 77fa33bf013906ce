const ratings = ["5", "4", "3", "2", "1"] as const;
export type RatingValue = (typeof ratings)[number];

interface RatingFieldProps {
  legend: string;
  /** Each choice's label, from 1 to 5 stars. */
  options: Readonly<Record<RatingValue, string>>;
  value: string | undefined;
  /** The message shown when no rating was chosen. */
  error?: string;
  /** Whether the legend is read to screen readers only (a heading says the same above it). */
  hideLegend?: boolean;
}

/** A rating from 5 down to 1, as radio buttons (one per form: field `rating`), with its error next to it and announced. */
export function RatingField({ legend, options, value, error, hideLegend = false }: RatingFieldProps) {
  const errorId = "rating-error";
  return (
    <fieldset className="form-field" aria-describedby={error ? errorId : undefined}>
      <legend className={hideLegend ? "visually-hidden" : undefined}>{legend}</legend>
      <div className="form-ratings">
        {ratings.map((rating) => (
          <label key={rating} className="quiz__option">
            <input type="radio" name="rating" value={rating} defaultChecked={value === rating} aria-invalid={error ? true : undefined} />
            <span>{options[rating]}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

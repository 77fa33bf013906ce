/**
 * The storefront's wordmark: a leaf in SVG and the brand name as text, so that the mark is exactly
 * as wide as its word in whatever font the visitor has, and centres where it is centred.
 */
export function Logo({ brand }: { brand: string }) {
  return (
    <span className="logo">
      <svg className="logo__leaf" viewBox="6 3 23 30" width="23" height="30" aria-hidden="true" focusable="false">
        <path d="M20 4C10 10 6 20 10 32c10-2 18-10 18-22 0-2-.6-4-1.4-6-2 .6-4.4 0-6.6 0Z" fill="#2f7d4f" />
        <path d="M12 31c3-8 7-13 12-18" stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" />
      </svg>
      <span className="logo__word">{brand}</span>
    </span>
  );
}

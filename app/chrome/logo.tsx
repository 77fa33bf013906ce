/** The storefront's wordmark: a leaf and the brand name, drawn in SVG so it costs no request. */
export function Logo({ brand }: { brand: string }) {
  return (
    <svg className="logo" viewBox="0 0 168 40" width="168" height="40" aria-hidden="true" focusable="false">
      <path d="M20 4C10 10 6 20 10 32c10-2 18-10 18-22 0-2-.6-4-1.4-6-2 .6-4.4 0-6.6 0Z" fill="#2f7d4f" />
      <path d="M12 31c3-8 7-13 12-18" stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" />
      <text x="38" y="28" fontFamily="Georgia, 'Times New Roman', serif" fontSize="24" fill="#1d3b2a">
        {brand}
      </text>
    </svg>
  );
}

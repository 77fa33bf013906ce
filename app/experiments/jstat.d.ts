// jstat ships no types; only the distributions used here are declared. It is a CommonJS module,
// so Node's ES modules see it as one default export.
declare module "jstat" {
  const jstat: {
    jStat: {
      chisquare: { cdf(x: number, degreesOfFreedom: number): number };
    };
  };
  export default jstat;
}

// jstat ships no types; only the distributions used here are declared.
declare module "jstat" {
  export const jStat: {
    chisquare: { cdf(x: number, degreesOfFreedom: number): number };
  };
}

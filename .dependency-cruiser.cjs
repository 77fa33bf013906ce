/**
 * The layers of the storefront, from the ground up. A folder may import only from folders in layers
 * below its own; folders of one layer do not import each other. docs/architecture.md explains each.
 */
const layers = [
  // The ground: plumbing every page needs, the database, markets and formatting, images.
  ["platform"],
  ["db"],
  ["market"],
  ["image"],
  // The domains, each owning its data, rules and components.
  ["funnel"],
  // Where a visit came from (its touch), kept with the order placed and counted with page views.
  ["attribution"],
  ["catalog"],
  ["forms"],
  ["payments"],
  ["mail"],
  // Discount codes: their terms, who may redeem them.
  ["codes"],
  ["orders"],
  // Reviews and operators' accounts name orders and their lines in their tables.
  ["reviews"],
  ["operators"],
  ["parcels"],
  ["downloads"],
  ["emails"],
  // Purchases reported to the ad platforms from the server, with the buyer's consent.
  ["conversions"],
  // The running store as pages read it.
  ["store"],
  // Split tests: which arm a request is in, and the report per arm.
  ["experiments"],
  // Pages and the back office.
  ["legal"],
  ["analytics"],
  ["chrome"],
  ["layouts"],
  ["offer"],
  ["landing"],
  ["upsells"],
  ["checkout"],
  ["admin", "routes"],
  // The composition that starts the store, beside the server's entry.
  ["composition"],
];

const folder = (name) => `^app/${name}/`;
const anyOf = (names) => `^app/(${names.join("|")})/`;
const testFile = "\\.test\\.tsx?$";

const layerRules = layers.flatMap((layer, index) => {
  const above = layers.slice(index + 1).flat();
  return layer.map((name) => ({
    name: `${name}-imports-only-below`,
    comment: `app/${name}/ may import only from the layers below it`,
    severity: "error",
    from: { path: folder(name), pathNot: testFile },
    to: { path: anyOf([...above, ...layer.filter((other) => other !== name)]) },
  }));
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "app-below-the-page-modules",
      comment: "the app's folders do not import the route table's modules, the root or the server's entry",
      severity: "error",
      from: { path: "^app/[^/]+/", pathNot: testFile },
      to: { path: "^app/(root|routes|document|entry\\.server)\\.tsx?$" },
    },
    {
      name: "storefront-does-not-import-tests",
      comment: "test helpers and fakes stay out of what the store runs",
      severity: "error",
      from: { path: "^(app|server)/", pathNot: `${testFile}|^app/test-support/` },
      to: { path: "^(app/test-support|tests)/" },
    },
    {
      name: "known-folders-only",
      comment: "every folder of app/ has its place in the layers above",
      severity: "error",
      from: { path: "^app/[^/]+/", pathNot: `^app/(${[...layers.flat(), "styles", "test-support"].join("|")})/` },
      to: {},
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "modules do not import each other in a circle (a type naming its user is not a circle at run time)",
      from: { pathNot: testFile },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|\\.react-router)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};

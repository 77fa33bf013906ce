/**
 * The layers of the storefront, from the ground up. A folder may import only from folders in layers
 * below its own; folders of one layer do not import each other. docs/architecture.md explains each.
 */
const layers = [
  ["platform"],
  ["db"],
  ["market"],
  ["image"],
  ["catalog"],
  ["funnel"],
  ["forms"],
  ["payments"],
  ["mail"],
  ["orders"],
  ["reviews"],
  ["parcels"],
  ["emails"],
  ["analytics"],
  ["chrome"],
  ["layouts"],
  ["landing", "checkout", "upsells"],
  ["store"],
  ["admin", "routes"],
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
      to: { path: "^app/(root|routes|entry\\.server)\\.tsx?$" },
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
      from: { pathNot: testFile },
      to: { circular: true },
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

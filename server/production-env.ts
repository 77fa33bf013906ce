/**
 * Imported first by the server: React chooses between its development and production builds
 * when it is first loaded, from NODE_ENV. The production server always runs production React
 * (the development build is several times slower and warns to the console), whatever the
 * environment it was started from (test runners set NODE_ENV=test).
 */
process.env.NODE_ENV = "production";

// `npm start`: serves the production build, building it first when there is none.
import { ensureBuild, serverEntry } from "./app-build.mjs";

ensureBuild();
await import(serverEntry.href);

import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { generateImages, type GeneratedImages } from "./build-images";
import { manifestModule } from "./manifest-module";

const virtualId = "virtual:image-manifest";
const resolvedId = `\0${virtualId}`;

/**
 * Generates the `local` provider's images once per build (shared by the client and server
 * builds), emits them into the client build, serves them in development, and exposes the
 * manifest as `virtual:image-manifest`.
 */
export function storefrontImages(): Plugin {
  const sourceDir = fileURLToPath(new URL("../../content/images/", import.meta.url));
  let generated: Promise<GeneratedImages> | undefined;
  const images = () => (generated ??= generateImages(sourceDir));
  return {
    name: "storefront-images",
    resolveId(id) {
      return id === virtualId ? resolvedId : null;
    },
    async load(id) {
      if (id !== resolvedId) return null;
      const { manifest } = await images();
      return manifestModule(manifest);
    },
    async generateBundle() {
      if (this.environment.name !== "client") return;
      for (const [fileName, source] of (await images()).files) this.emitFile({ type: "asset", fileName, source });
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const file = req.url?.startsWith("/assets/images/") ? (await images()).files.get(req.url.slice(1)) : undefined;
        if (!file) return next();
        res.setHeader("Content-Type", "image/webp");
        res.end(file);
      });
    },
  };
}

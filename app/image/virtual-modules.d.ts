declare module "virtual:image-manifest" {
  import type { ImageManifest } from "./image-manifest";
  const manifest: ImageManifest;
  export default manifest;
}

import manifest from "virtual:image-manifest";
import { useEffect, useRef, useState, type SyntheticEvent } from "react";
import { preload } from "react-dom";
import { useStorefront } from "../market/storefront-context";
import type { Decoding, Loading } from "./image-core";
import { resolveImage, type ImageRequest } from "./resolve-image";

export interface StoreImageProps extends ImageRequest {
  alt: string;
  /** The page's largest image: eager, high priority and preloaded. All others are lazy. */
  priority?: boolean;
  loading?: Loading;
  decoding?: Decoding;
  className?: string;
  onLoad?: (event: Event | SyntheticEvent<HTMLImageElement>) => void;
  onError?: (event: Event | SyntheticEvent<HTMLImageElement>) => void;
}

/**
 * An image from the configured provider (`local` build variants or Cloudflare Images), sized for
 * the storefront's screens, always with width and height so the layout does not shift.
 */
export function StoreImage({ alt, priority = false, loading, decoding = "async", className, onLoad, onError, ...request }: StoreImageProps) {
  const { images } = useStorefront().config;
  const image = resolveImage(request, images, manifest);
  const element = useRef<HTMLImageElement>(null);
  const [loaded, setLoaded] = useState(false);
  const reported = useRef(false);

  if (priority && image.srcSet) {
    preload(image.src, { as: "image", imageSrcSet: image.srcSet, imageSizes: image.sizes, fetchPriority: "high" });
  }

  // With a placeholder, the real image is fetched aside and swapped in once it has arrived.
  useEffect(() => {
    if (!image.placeholder) return;
    const real = new Image();
    real.onload = (event) => {
      setLoaded(true);
      onLoad?.(event);
    };
    real.onerror = (event) => onError?.(event as Event);
    if (image.sizes) real.sizes = image.sizes;
    if (image.srcSet) real.srcset = image.srcSet;
    real.src = image.src;
    return () => {
      real.onload = null;
      real.onerror = null;
    };
  }, [image.placeholder, image.src, image.srcSet, image.sizes, onLoad, onError]);

  // An image that finished before hydration fired its event before React listened: report it once.
  useEffect(() => {
    const img = element.current;
    if (image.placeholder || !img || !img.complete || reported.current) return;
    reported.current = true;
    const event = new Event(img.naturalWidth > 0 ? "load" : "error");
    if (img.naturalWidth > 0) onLoad?.(event);
    else onError?.(event);
  }, [image.placeholder, onLoad, onError]);

  const showPlaceholder = Boolean(image.placeholder) && !loaded;
  const report = (handler: StoreImageProps["onLoad"]) => (event: SyntheticEvent<HTMLImageElement>) => {
    if (showPlaceholder || reported.current) return;
    reported.current = true;
    handler?.(event);
  };
  return (
    <img
      ref={element}
      className={className}
      src={showPlaceholder ? image.placeholder : image.src}
      srcSet={showPlaceholder ? undefined : image.srcSet}
      sizes={showPlaceholder ? undefined : image.sizes}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={priority ? "eager" : (loading ?? "lazy")}
      decoding={decoding}
      fetchPriority={priority ? "high" : undefined}
      crossOrigin={image.crossOrigin}
      onLoad={report(onLoad)}
      onError={report(onError)}
    />
  );
}

import { lazy, type ComponentType } from "react";

type Loaded<P> = { default: ComponentType<P> };

const serverLoads: Promise<unknown>[] = [];

/**
 * A component whose code the browser loads after the page's own, for content below the fold:
 * rendered in a `<Suspense>` boundary, the server's HTML stays in place until the code has
 * arrived and then hydrates. Should the code fail to load (the chunk-failure guard has then
 * reloaded the page where it could), the part is left out rather than the page replaced by the
 * error page.
 *
 * The server loads the code when it starts and renders the part in place: a lazy component that
 * made the server wait would be streamed after the rest of the page, hidden until a script moves
 * it, and so missing without JavaScript.
 */
export function deferredComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  if (import.meta.env.SSR) {
    serverLoads.push(
      load().then((component) => {
        loaded = component;
      }),
    );
  }
  return lazy((): Promise<Loaded<P>> => {
    // React takes a module that is already at hand synchronously when `then` answers at once.
    if (loaded) return { then: (fulfil: (module: Loaded<P>) => unknown) => fulfil({ default: loaded as ComponentType<P> }) } as unknown as Promise<Loaded<P>>;
    return load().then(
      (component) => ({ default: component }),
      () => ({ default: Omitted as ComponentType<P> }),
    );
  });
}

function Omitted() {
  return null;
}

/** Resolves once the server holds the code of every deferred component; the root middleware waits for it. */
export function deferredComponentsLoaded(): Promise<void> {
  return Promise.all(serverLoads).then(() => undefined);
}

import { Transform, type TransformCallback } from "node:stream";

const modulePreload = /<link rel="modulepreload"[^>]*\/>/g;

/**
 * Removes the `modulepreload` hints that React hoists into the document's head. On a slow
 * phone connection they make the browser fetch the whole JavaScript graph before the first paint;
 * without them the same modules load from the module script at the end of the body, after the
 * page is already on screen (docs/decisions/0007-first-paint-before-javascript.md).
 * Only the head is buffered; the body streams through untouched.
 */
export function stripModulePreloads(): Transform {
  let head = "";
  let headDone = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (headDone) return callback(null, chunk);
      head += chunk.toString("utf8");
      const end = head.indexOf("</head>");
      if (end === -1) return callback();
      headDone = true;
      callback(null, head.slice(0, end).replace(modulePreload, "") + head.slice(end));
    },
    flush(callback: TransformCallback) {
      callback(null, headDone ? undefined : head.replace(modulePreload, ""));
    },
  });
}

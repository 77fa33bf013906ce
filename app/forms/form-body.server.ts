import { data } from "react-router";

/**
 * The body of a form post, refused before it is read when it is too large (413) or not a form
 * at all (415): a JSON or oversized body gets a clear 4xx, never a 500.
 */
export async function readFormBody(request: Request, maxBytes = 32 * 1024): Promise<FormData> {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > maxBytes) throw data({ message: "Request body too large" }, { status: 413 });
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(contentType)) throw data({ message: "Send the form" }, { status: 415 });
  try {
    return await request.formData();
  } catch {
    throw data({ message: "The form could not be read" }, { status: 400 });
  }
}

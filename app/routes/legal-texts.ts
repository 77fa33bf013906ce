import { data } from "react-router";
import type { Route } from "./+types/legal-texts";
import { legalTextsFor } from "../legal/legal-texts.server";

/** The information modal's texts, fetched when it first opens, so pages do not carry them. */
export function loader({ params }: Route.LoaderArgs) {
  const texts = legalTextsFor(params.lang);
  if (!texts) throw data({ message: `No legal texts for ${params.lang}` }, { status: 404 });
  return Response.json(texts, { headers: { "Cache-Control": "public, max-age=3600" } });
}

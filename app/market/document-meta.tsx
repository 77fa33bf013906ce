import { useTranslate } from "./translate";

/** The document's title and description (React hoists both into the head). */
export function DocumentMeta({ title }: { title: string }) {
  const t = useTranslate();
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={t("meta.description")} />
    </>
  );
}

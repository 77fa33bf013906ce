import { PageIntro } from "../chrome/page-intro";

/** Uses no layout: a single card inviting the visitor to add the shop to the home screen. */
export default function AddAppPage() {
  return (
    <main id="main" className="page page--narrow">
      <PageIntro messagePrefix="pages.addApp" />
    </main>
  );
}

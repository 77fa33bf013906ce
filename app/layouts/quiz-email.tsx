import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** Quizzes that ask for an e-mail: known to the specification, used by no route yet. */
export default function QuizEmailLayout() {
  return (
    <PageFrame width="narrow">
      <Outlet />
    </PageFrame>
  );
}

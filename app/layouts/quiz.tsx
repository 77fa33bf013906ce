import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** Quizzes and summaries: one narrow column, one question at a time. */
export default function QuizLayout() {
  return (
    <PageFrame width="narrow">
      <Outlet />
    </PageFrame>
  );
}

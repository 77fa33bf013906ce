import { Document, NoticeBox, type Notice } from "./frame";

export function LoginView({ email, notice, next }: { email: string; notice: Notice | null; next: string }) {
  return (
    <Document title="Log in">
      <main className="login" id="content">
        <h1>Vitanor back office</h1>
        <NoticeBox notice={notice} />
        <form method="post" action="/admin/login" className="panel">
          <input type="hidden" name="next" value={next} />
          <label>
            E-mail address
            <input type="email" name="email" autoComplete="username" required defaultValue={email} maxLength={254} />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required maxLength={1024} />
          </label>
          <button type="submit">Log in</button>
        </form>
      </main>
    </Document>
  );
}

import type { CSSProperties } from "react";
import type { MailContent, MailRow } from "./mail-content";

/**
 * The HTML part of every e-mail: a single-column table layout with inline styles, which is what
 * mail clients render reliably. No images, no tracking pixels, no external resources.
 */
/** Inline CSS written as CSS, for React's style objects. */
function css(declarations: string): CSSProperties {
  return Object.fromEntries(
    declarations
      .split(";")
      .filter((declaration) => declaration.includes(":"))
      .map((declaration) => {
        const [property = "", ...value] = declaration.split(":");
        return [property.trim().replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()), value.join(":").trim()];
      }),
  );
}

const font = "font-family:Arial,Helvetica,sans-serif;color:#1f2a2e;font-size:15px;line-height:1.5";

function Row({ row }: { row: MailRow }) {
  const weight = row.strong ? "font-weight:bold;" : "";
  return (
    <tr>
      <td style={css(`${weight}padding:6px 0;border-top:1px solid #e3e8e6;vertical-align:top`)}>
        {row.label}
        {(row.notes ?? []).map((note) => (
          <div key={note} style={css("font-size:13px;color:#4f5d61")}>
            {note}
          </div>
        ))}
      </td>
      <td style={css(`${weight}padding:6px 0 6px 16px;border-top:1px solid #e3e8e6;text-align:right;vertical-align:top;white-space:nowrap`)}>{row.value}</td>
    </tr>
  );
}

export function MailView({ content }: { content: MailContent }) {
  return (
    <html lang={content.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{content.subject}</title>
      </head>
      <body style={css("margin:0;padding:0;background:#f4f6f5")}>
        <div style={css("display:none;max-height:0;overflow:hidden")}>{content.preheader}</div>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={css("background:#f4f6f5")}>
          <tbody>
            <tr>
              <td align="center" style={css("padding:24px 12px")}>
                <table role="presentation" width="600" cellPadding={0} cellSpacing={0} style={css(`max-width:600px;width:100%;background:#ffffff;border-radius:8px;${font}`)}>
                  <tbody>
                    <tr>
                      <td style={css("padding:28px 28px 8px")}>
                        {content.notice ? (
                          <p style={css("margin:0 0 16px;padding:10px 12px;border:2px solid #8a5a00;border-radius:6px;background:#fff6e0")}>{content.notice}</p>
                        ) : null}
                        <p style={css("margin:0 0 12px")}>{content.greeting}</p>
                        {content.paragraphs.map((paragraph) => (
                          <p key={paragraph} style={css("margin:0 0 12px")}>
                            {paragraph}
                          </p>
                        ))}
                      </td>
                    </tr>
                    {content.sections.map((section, index) => (
                      <tr key={index}>
                        <td style={css("padding:8px 28px")}>
                          {section.title ? <h2 style={css("margin:8px 0;font-size:17px")}>{section.title}</h2> : null}
                          {section.address ? (
                            <p style={css("margin:0 0 12px;font-style:normal")}>
                              {section.address.map((line, lineIndex) => (
                                <span key={lineIndex}>
                                  {line}
                                  <br />
                                </span>
                              ))}
                            </p>
                          ) : null}
                          {(section.paragraphs ?? []).map((paragraph) => (
                            <p key={paragraph} style={css("margin:0 0 8px")}>
                              {paragraph}
                            </p>
                          ))}
                          {section.rows ? (
                            <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={css(font)}>
                              <tbody>
                                {section.rows.map((row) => (
                                  <Row key={`${row.label}|${row.value}`} row={row} />
                                ))}
                              </tbody>
                            </table>
                          ) : null}
                          {section.link ? (
                            <p style={css("margin:12px 0")}>
                              <a href={section.link.href} style={css("display:inline-block;padding:10px 16px;background:#1d6b52;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:bold")}>
                                {section.link.label}
                              </a>
                            </p>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                    <tr>
                      <td style={css("padding:16px 28px 28px")}>
                        {content.signature.split("\n").map((line) => (
                          <p key={line} style={css("margin:0")}>
                            {line}
                          </p>
                        ))}
                        <p style={css("margin:16px 0 0;font-size:13px;color:#4f5d61")}>{content.contact}</p>
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

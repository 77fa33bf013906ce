import { localeCodes } from "../../market/markets";
import type { Operator } from "../../operators/audit.server";
import type { ProductFiles } from "../../downloads/digital-files.server";
import { formatTime, Frame, type Notice } from "./frame";

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/**
 * Digital products' files (decision 0027): every version per product and locale, which one buyers get,
 * how often each was downloaded, and the upload form that makes a new version current.
 */
export function FilesView({ operator, products, canUpload, maxUploadMb, notice }: { operator: Operator; products: ProductFiles[]; canUpload: boolean; maxUploadMb: number; notice?: Notice | null }) {
  return (
    <Frame operator={operator} section="files" title="Files" notice={notice}>
      <main id="content">
        <h1>Digital products' files</h1>
        <p className="muted">
          Buyers download the current file of their order's locale, or the product's default file when their locale has none. PDF, EPUB, MP3, M4A and ZIP, judged by their content. Larger
          files than {maxUploadMb} MB: <code>npm run admin -- add-file &lt;product id&gt; &lt;file&gt; [--locale de_DE]</code>.
        </p>
        {products.map((product) => (
          <section key={product.productId} className="panel" aria-labelledby={`product-${product.productId}`} data-testid="admin-product-files" data-product={product.productId}>
            <h2 id={`product-${product.productId}`}>
              {product.name} <span className="muted">({product.productId})</span>
            </h2>
            {product.files.length === 0 ? (
              <p className="notice error">No file yet: test orders get a generated test PDF, and live mode does not start.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Locale</th>
                    <th scope="col">Version</th>
                    <th scope="col">Type</th>
                    <th scope="col">Size</th>
                    <th scope="col">Uploaded</th>
                    <th scope="col">Downloads</th>
                    <th scope="col">State</th>
                    <th scope="col">File</th>
                  </tr>
                </thead>
                <tbody>
                  {product.files.map((file) => (
                    <tr key={file.id} data-testid="admin-file">
                      <td>{file.locale || "default"}</td>
                      <td>{file.version}</td>
                      <td>{file.contentType}</td>
                      <td className="nowrap">{size(file.bytes)}</td>
                      <td>
                        {formatTime(file.createdAt)} <span className="muted">by {file.uploadedBy}</span>
                      </td>
                      <td>{file.downloads}</td>
                      <td>{file.current ? <strong>current</strong> : "replaced"}</td>
                      <td>
                        <a href={`/admin/files/${file.id}`} data-testid="admin-file-read">
                          Download
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {canUpload ? (
              <form method="post" action="/admin/files" encType="multipart/form-data">
                <input type="hidden" name="product" value={product.productId} />
                <fieldset>
                  <legend>Upload a new version</legend>
                  <div className="actions">
                    <label>
                      Locale{" "}
                      <select name="locale" defaultValue="">
                        <option value="">default (every locale without its own)</option>
                        {localeCodes.map((code) => (
                          <option key={code} value={code}>
                            {code}
                          </option>
                        ))}
                      </select>
                    </label>
                    <label>
                      File <input type="file" name="file" required accept=".pdf,.epub,.mp3,.m4a,.zip" data-testid="admin-file-input" />
                    </label>
                    <button type="submit" data-testid="admin-file-upload">
                      Upload
                    </button>
                  </div>
                </fieldset>
              </form>
            ) : null}
          </section>
        ))}
      </main>
    </Frame>
  );
}

/**
 * Load on loopback as browsers ask: each target at 10 and 50 connections, with the encoding a
 * browser sends (`gzip, br`) and, for the prerendered page, without any for comparison. Reports
 * requests per second, p50 and p99 latency and the bytes of one answer as sent.
 */
import { request } from "node:http";
import autocannon from "autocannon";

export interface LoadTarget {
  name: string;
  path: string;
  headers: Record<string, string>;
}

export interface LoadFigures {
  target: string;
  path: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Bytes of one answer's body as sent (compressed when the answer is). */
  bytes: number;
  encoding: string;
  errors: number;
}

const browserEncoding = { "Accept-Encoding": "gzip, br" };

export const loadTargets: LoadTarget[] = [
  { name: "prerendered, br", path: "/offer/fr", headers: { "Accept-Encoding": "br" } },
  { name: "prerendered, identity", path: "/offer/fr", headers: {} },
  { name: "prerendered, browser", path: "/offer/fr", headers: browserEncoding },
  { name: "geo page (FR), browser", path: "/offer", headers: { ...browserEncoding, "CF-IPCountry": "FR" } },
  { name: "geo take page (DE), browser", path: "/take", headers: { ...browserEncoding, "CF-IPCountry": "DE" } },
  { name: "checkout, browser", path: "/checkout/fr?bundle=shape-3", headers: browserEncoding },
];

/** One answer as it crosses the wire: its status, encoding and body bytes before decoding. */
export function rawAnswer(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, encoding: String(res.headers["content-encoding"] ?? "identity"), bytes }));
    });
    req.on("error", reject);
    req.end();
  });
}

export async function loadMatrix(baseUrl: string, targets = loadTargets, connectionCounts = [10, 50], duration = 8): Promise<LoadFigures[]> {
  const figures: LoadFigures[] = [];
  for (const target of targets) {
    // The first answer warms whatever the server keeps (the geo cache); it is not measured.
    const answer = await rawAnswer(baseUrl + target.path, target.headers);
    for (const connections of connectionCounts) {
      const result = await autocannon({ url: baseUrl + target.path, headers: target.headers, connections, duration });
      figures.push({
        target: target.name,
        path: target.path,
        connections,
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        bytes: answer.bytes,
        encoding: answer.encoding,
        errors: result.errors + result.non2xx,
      });
    }
  }
  return figures;
}

/** The ratios the serving goals are stated in (docs/architecture.md, 'The performance budget'; decision 0018). */
export function loadRatios(figures: LoadFigures[]) {
  const rps = (target: string, connections: number) => figures.find((row) => row.target === target && row.connections === connections)?.requestsPerSecond ?? Number.NaN;
  const ratio = (a: number, b: number) => +(a / b).toFixed(2);
  return {
    brotliVsIdentityAt10: ratio(rps("prerendered, br", 10), rps("prerendered, identity", 10)),
    brotliVsIdentityAt50: ratio(rps("prerendered, br", 50), rps("prerendered, identity", 50)),
    geoVsPrerenderedAt50: ratio(rps("geo page (FR), browser", 50), rps("prerendered, browser", 50)),
    geoP99At50Ms: figures.find((row) => row.target === "geo page (FR), browser" && row.connections === 50)?.p99Ms ?? Number.NaN,
  };
}

/**
 * The back office's server time with a store of 10,000 orders on PostgreSQL: the order list
 * (first page, a search, filters, a later page) and the funnel report, read from each answer's
 * `Server-Timing` header so that only the server's work is measured.
 */
import { spawnSync } from "node:child_process";
import pg from "pg";
import { startServer } from "../tests/e2e/support/server";

const seededOrders = 10_000;
const requestsPerPage = 100;
const operator = { email: "bench.owner@example.com", password: "bench owner password" };

export interface ServerTimeFigures {
  page: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

/** The value at this share of a sorted list, to a tenth of a millisecond. */
export function percentile(sorted: number[], share: number): number {
  return +(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN).toFixed(1);
}

/** A fresh database beside the one named, so the figures always mean 10,000 orders. */
async function freshDatabase(baseUrl: string): Promise<string> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1) || "postgres"}_back_office`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  url.pathname = `/${name}`;
  return url.toString();
}

function run(script: string, args: string[], env: Record<string, string>, input?: string): void {
  const result = spawnSync(process.execPath, [script, ...args], { env: { ...process.env, ...env }, input, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${script} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
}

export async function backOfficeOnPostgres(): Promise<{ orders: number; pages: ServerTimeFigures[] } | null> {
  const baseUrl = process.env.BENCH_DATABASE_URL;
  if (!baseUrl) return null;
  const databaseUrl = await freshDatabase(baseUrl);
  const env = { DATABASE_URL: databaseUrl };
  run("scripts/seed.mjs", ["--orders", String(seededOrders), "--seed", "1"], env);
  run("scripts/admin.mjs", ["add-user", operator.email, "--role", "owner"], env, `${operator.password}\n`);
  const server = await startServer(env);
  try {
    const login = await fetch(`${server.url}/admin/login`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(operator),
      redirect: "manual",
    });
    const cookie = /vitanor_admin=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0];
    if (!cookie) throw new Error(`The benchmark operator could not log in (${login.status})`);
    const today = new Date().toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const pages = [
      "/admin/orders",
      "/admin/orders?q=schmidt",
      "/admin/orders?status=paid&market=DE&test=test",
      "/admin/orders?page=100",
      `/admin/report?from=${monthAgo}&to=${today}&test=1`,
      `/admin/report?from=${monthAgo}&to=${today}&test=1&market=FR&src=v1`,
    ];
    const figures: ServerTimeFigures[] = [];
    for (const page of pages) {
      const times: number[] = [];
      for (let request = 0; request < requestsPerPage; request += 1) {
        const response = await fetch(`${server.url}${page}`, { headers: { cookie, "Accept-Encoding": "gzip, br" } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
        const duration = Number(/dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "")?.[1]);
        times.push(duration);
      }
      times.sort((a, b) => a - b);
      figures.push({ page, requests: times.length, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) });
    }
    return { orders: seededOrders, pages: figures };
  } finally {
    await server.stop();
  }
}

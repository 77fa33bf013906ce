import type { NextFunction, Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { stripInternalHeaders } from "./cached-pages";
import { cachedRenderHeader } from "./csp";

describe("stripInternalHeaders", () => {
  it("removes every header that asks for a render without a nonce, and nothing else", () => {
    const headers: Record<string, string> = {
      [cachedRenderHeader.toLowerCase()]: "1",
      "x-react-router-prerender": "1",
      "x-react-router-prerender-data": "x",
      "cf-ipcountry": "FR",
    };
    const next = vi.fn() as unknown as NextFunction;
    stripInternalHeaders({ headers } as unknown as Request, {} as Response, next);
    expect(headers).toEqual({ "cf-ipcountry": "FR" });
    expect(next).toHaveBeenCalledOnce();
  });
});

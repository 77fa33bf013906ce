import { describe, expect, it } from "vitest";
import { minorToPayPalValue, payPalValueToMinor } from "./paypal-amounts";

describe("PayPal amounts", () => {
  it.each<[number, string, string]>([
    [8970, "EUR", "89.70"],
    [5, "GBP", "0.05"],
    [50, "SEK", "0.50"],
    [0, "DKK", "0.00"],
    [129900, "SEK", "1299.00"],
    [4990, "CHF", "49.90"],
    [100, "DKK", "1.00"],
    [123456789, "EUR", "1234567.89"],
    [1290, "JPY", "1290"],
  ])("%i minor units of %s are %j", (minor, currency, value) => {
    expect(minorToPayPalValue(minor, currency)).toBe(value);
    expect(payPalValueToMinor(value, currency)).toBe(minor);
  });

  it.each<[string, string, number]>([
    ["12.9", "EUR", 1290],
    ["12", "EUR", 1200],
    ["0.01", "CHF", 1],
  ])("reads PayPal's shorter forms: %j %s is %i", (value, currency, minor) => {
    expect(payPalValueToMinor(value, currency)).toBe(minor);
  });

  it.each<[number, string]>([
    [12.5, "EUR"],
    [-100, "EUR"],
    [Number.NaN, "EUR"],
    [100, "QQQ"],
    [100, "eur"],
  ])("refuses to write %d %s", (minor, currency) => {
    expect(() => minorToPayPalValue(minor, currency)).toThrow(RangeError);
  });

  it.each<[string, string]>([
    ["12.345", "EUR"],
    ["12.5", "JPY"],
    ["-1.00", "EUR"],
    ["1e3", "EUR"],
    ["", "EUR"],
    [" 1.00", "EUR"],
    ["1.00", "QQQ"],
  ])("refuses to read %j %s", (value, currency) => {
    expect(() => payPalValueToMinor(value, currency)).toThrow(RangeError);
  });
});

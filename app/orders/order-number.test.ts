import { describe, expect, it } from "vitest";
import { newOrderNumber, normalizeOrderNumber, orderNumberPattern } from "./order-number";

const confusable = /[01OILUV]/;

/** A deterministic stand-in for randomInt that walks through every value in turn. */
const counting = () => {
  let next = 0;
  return (max: number) => next++ % max;
};

describe("newOrderNumber", () => {
  it.each<[string, (max: number) => number, string]>([
    ["always the first character", () => 0, "VN-2222-2222"],
    ["always the last character", (max) => max - 1, "VN-ZZZZ-ZZZZ"],
    ["the characters in turn", counting(), "VN-2345-6789"],
  ])("with %s gives %s", (_name, random, expected) => {
    const number = newOrderNumber(random);
    expect(number).toBe(expected);
    expect(number).toMatch(orderNumberPattern);
  });

  it("uses only characters the pattern allows, never a confusable one, whatever the random function gives", () => {
    const random = counting();
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const number = newOrderNumber(random);
      expect(number).toMatch(orderNumberPattern);
      for (const character of number.slice(3).replace("-", "")) seen.add(character);
    }
    expect([...seen].join("")).not.toMatch(confusable);
    // Every character the pattern allows does turn up.
    const allowed = [..."23456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"].filter((character) => orderNumberPattern.test(`VN-${character.repeat(4)}-${character.repeat(4)}`));
    expect([...seen].sort()).toEqual(allowed);
  });

  it("gives well-formed, distinct numbers with the real random source", () => {
    const numbers = Array.from({ length: 1000 }, () => newOrderNumber());
    for (const number of numbers) {
      expect(number).toMatch(orderNumberPattern);
      expect(number.slice(3)).not.toMatch(confusable);
    }
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe("normalizeOrderNumber", () => {
  it.each<[string]>([["vn-7k3m-q9xd"], ["VN7K3MQ9XD"], [" VN-7K3M-Q9XD "], ["VN-7K3M-Q9XD"], ["vn 7k3m q9xd"]])("reads %j as VN-7K3M-Q9XD", (typed) => {
    expect(normalizeOrderNumber(typed)).toBe("VN-7K3M-Q9XD");
  });

  it.each<[string]>([
    ["VN-123456"],
    ["VN-0K3M-Q9XD"], // 0 is not used
    ["VN-IK3M-Q9XD"], // nor I
    ["VN-7K3M-Q9XU"], // nor U
    [""],
    ["VN-7K3M-Q9X"],
    ["VN-7K3M-Q9XDA"],
    ["XX-7K3M-Q9XD"],
    ["VN_7K3M_Q9XD"],
  ])("refuses %j", (typed) => {
    expect(normalizeOrderNumber(typed)).toBeNull();
  });
});

// The push endpoint allow-list (decision 060): which URLs the server may POST to.
import { describe, expect, test } from "vitest";
import {
  checkEndpointUrl,
  isPublicAddress,
  LookupError,
  parseEndpointHosts,
  type Resolver,
  resolveEndpoint,
} from "./allow-list.ts";

const none = parseEndpointHosts("");
const listed = parseEndpointHosts(
  "127.0.0.1:8080, push.test, relay.example:8443, [::1]:9000, localhost:7000",
);

const resolver =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

describe("checkEndpointUrl", () => {
  test.each([
    "https://fcm.googleapis.com/fcm/send/abc:APA91b",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
    "https://push.services.mozilla.com.updates.push.services.mozilla.com/x",
    "https://eu-1.push.services.mozilla.com/wpush/v1/x",
    "https://web.push.apple.com/QGx",
    "https://api.push.apple.com/3/device/x",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2b",
    "https://FCM.googleapis.com/fcm/send/abc",
  ])("known push services pass: %s", (endpoint) => {
    expect(checkEndpointUrl(endpoint, none)).toMatchObject({ ok: true });
  });

  test.each([
    ["http://fcm.googleapis.com/fcm/send/abc", /https/],
    ["https://fcm.googleapis.com:8443/fcm/send/abc", /default port/],
    ["https://fcm.googleapis.com:443/fcm/send/abc", /plainly/],
    ["https://fcm.googleapis.com./fcm/send/abc", /known push service/],
    ["https://fcm%2egoogleapis.com/fcm/send/abc", /plainly|URL/],
    ["https://googleapis.com/x", /known push service/],
    ["https://evilfcm.googleapis.com/x", /known push service/],
    ["https://push.apple.com/x", /known push service/],
    ["https://push.apple.com.evil.example/x", /known push service/],
    ["https://notify.windows.com.evil.example/x", /known push service/],
    ["https://user@fcm.googleapis.com/x", /user name/],
    ["https://user:pw@fcm.googleapis.com/x", /user name/],
    ["https://fcm.googleapis.com@127.0.0.1/x", /user name/],
    ["https://127.0.0.1/x", /IP address/],
    ["https://169.254.169.254/latest/meta-data/", /IP address/],
    ["https://[::1]/x", /IP address/],
    ["https://[fd00:ec2::254]/x", /IP address/],
    ["https://2130706433/x", /plainly/],
    ["https://0x7f000001/x", /plainly/],
    ["https://0177.0.0.1/x", /plainly/],
    ["https://127.1/x", /plainly/],
    ["https://[::ffff:127.0.0.1]/x", /plainly/],
    ["https://localhost/x", /known push service/],
    ["ftp://fcm.googleapis.com/x", /https/],
    ["javascript:alert(1)", /https/],
    ["not a url", /not a URL/],
    ["https://fcm.googleapis.com\\@evil.example/x", /not a URL/],
    [`https://fcm.googleapis.com/${"a".repeat(1100)}`, /longer/],
  ])("refused: %s", (endpoint, reason) => {
    const result = checkEndpointUrl(endpoint, none);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  test("PUSH_ENDPOINT_HOSTS adds hosts at their port; http: only on a listed loopback address", () => {
    expect(checkEndpointUrl("http://127.0.0.1:8080/p", listed)).toMatchObject({
      ok: true,
      address: "127.0.0.1",
    });
    expect(checkEndpointUrl("http://[::1]:9000/p", listed)).toMatchObject({ ok: true, address: "::1" });
    expect(checkEndpointUrl("http://127.0.0.1:8081/p", listed).ok).toBe(false);
    expect(checkEndpointUrl("http://127.0.0.1/p", listed).ok).toBe(false);
    expect(checkEndpointUrl("http://2130706433:8080/p", listed).ok).toBe(false);
    expect(checkEndpointUrl("https://push.test/p", listed)).toMatchObject({ ok: true, name: "push.test" });
    expect(checkEndpointUrl("http://push.test/p", listed).ok).toBe(false);
    expect(checkEndpointUrl("https://push.test:444/p", listed).ok).toBe(false);
    expect(checkEndpointUrl("https://relay.example:8443/p", listed).ok).toBe(true);
    expect(checkEndpointUrl("https://relay.example/p", listed).ok).toBe(false);
    // localhost is a name: listed, it is still looked up (and refused for resolving to loopback).
    expect(checkEndpointUrl("http://localhost:7000/p", listed).ok).toBe(false);
    expect(checkEndpointUrl("https://localhost:7000/p", listed)).toMatchObject({
      ok: true,
      name: "localhost",
    });
  });

  test("a malformed PUSH_ENDPOINT_HOSTS is one line", () => {
    expect(() => parseEndpointHosts("http://x.example")).toThrow(/PUSH_ENDPOINT_HOSTS/);
    expect(() => parseEndpointHosts("a@b")).toThrow(/PUSH_ENDPOINT_HOSTS/);
    expect(() => parseEndpointHosts("x.example/path")).toThrow(/PUSH_ENDPOINT_HOSTS/);
  });
});

describe("isPublicAddress", () => {
  test.each([
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "198.18.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::a9fe:a9fe",
    "::127.0.0.1",
    "fc00::1",
    "fd00:ec2::254",
    "fe80::1",
    "ff02::1",
    "2001:db8::1",
    "2002:7f00:1::",
    "not-an-ip",
  ])("not public: %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(["142.250.74.10", "8.8.8.8", "2a00:1450:4007:80e::200a", "::ffff:8.8.8.8", "172.32.0.1"])(
    "public: %s",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("resolveEndpoint", () => {
  test("a name is connected to at the address checked", async () => {
    const result = await resolveEndpoint(
      "https://fcm.googleapis.com/fcm/send/x",
      none,
      resolver({ "fcm.googleapis.com": ["142.250.74.10"] }),
    );
    expect(result).toMatchObject({ ok: true, endpoint: { address: "142.250.74.10", family: 4 } });
  });

  test("a name any of whose addresses is private or loopback is refused, listed or not", async () => {
    const table = resolver({
      "web.push.apple.com": ["17.1.2.3", "10.0.0.5"],
      "push.test": ["127.0.0.1"],
      localhost: ["127.0.0.1", "::1"],
      "evil.notify.windows.com": ["169.254.169.254"],
      "six.push.apple.com": ["::ffff:192.168.0.1"],
    });
    for (const endpoint of [
      "https://web.push.apple.com/x",
      "https://push.test/x",
      "https://localhost:7000/x",
      "https://evil.notify.windows.com/x",
      "https://six.push.apple.com/x",
    ]) {
      const result = await resolveEndpoint(endpoint, listed, table);
      expect(result, endpoint).toEqual({
        ok: false,
        reason: "the endpoint's host resolves to a private or local address",
      });
    }
  });

  test("a listed IP literal is not looked up; a name that does not resolve is a LookupError", async () => {
    const never: Resolver = async () => {
      throw new Error("looked up");
    };
    expect(await resolveEndpoint("http://127.0.0.1:8080/p", listed, never)).toMatchObject({
      ok: true,
      endpoint: { address: "127.0.0.1" },
    });
    await expect(resolveEndpoint("https://fcm.googleapis.com/x", none, resolver({}))).rejects.toBeInstanceOf(
      LookupError,
    );
    await expect(resolveEndpoint("https://fcm.googleapis.com/x", none, resolver({}))).rejects.toMatchObject({
      temporary: false,
    });
    const flaky: Resolver = async () => {
      throw Object.assign(new Error("try again"), { code: "EAI_AGAIN" });
    };
    await expect(resolveEndpoint("https://fcm.googleapis.com/x", none, flaky)).rejects.toMatchObject({
      temporary: true,
    });
  });
});

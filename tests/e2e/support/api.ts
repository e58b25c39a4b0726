import { randomUUID } from "node:crypto";
import { request, type APIRequestContext, type APIResponse } from "@playwright/test";
import { ADMIN, type Credentials } from "./pages.ts";

// People acting on the e2e server through its JSON API, beside what the test's browser does: another admin
// changing a stock, a shopper clearing their cart or ordering. The shop's own rules and change notices apply,
// as they do for any client; nothing is written into its database behind its back.

const suiteOrigin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

async function ok(response: APIResponse, what: string): Promise<APIResponse> {
  if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
  return response;
}

/**
 * A JSON API client signed in as `person` through the endpoint the login page uses (so it counts against the
 * sign-in limits like any sign-in), on the suite's server unless `origin` names another. Dispose of it after use.
 */
export async function signedInApi(person: Credentials, origin = suiteOrigin()): Promise<APIRequestContext> {
  // The API takes writes only from the shop's own origin, as a page of it sends them.
  const api = await request.newContext({ baseURL: origin, extraHTTPHeaders: { Origin: origin } });
  await ok(await api.post("/api/auth/sign-in/email", { data: { email: person.email, password: person.password } }), `signing in ${person.email}`);
  return api;
}

/** Runs `act` as `person` through the JSON API, signed in for it alone. */
export async function asPerson<T>(person: Credentials, act: (api: APIRequestContext) => Promise<T>, origin?: string): Promise<T> {
  const api = await signedInApi(person, origin);
  try {
    return await act(api);
  } finally {
    await api.dispose();
  }
}

/** The owner, in a session of their own (not the test's browser): sets a product's stock through the admin API. */
export function setStockAsAdmin(productId: string, stock: number) {
  return asPerson(ADMIN, async (api) => ok(await api.patch(`/api/admin/products/${productId}/stock`, { data: { stock } }), `setting the stock of ${productId}`));
}

/** The owner, in a session of their own: deletes a product through the admin API (gone from the shop and from carts). */
export function deleteProductAsAdmin(productId: string) {
  return asPerson(ADMIN, async (api) => ok(await api.delete(`/api/admin/products/${productId}`), `deleting ${productId}`));
}

async function removeEveryLine(api: APIRequestContext) {
  const cart = (await (await ok(await api.get("/api/cart"), "reading the cart")).json()) as { lines: { id: string }[] };
  for (const line of cart.lines) await ok(await api.delete(`/api/cart/items/${line.id}`), `removing cart line ${line.id}`);
}

/** Removes every line of `shopper`'s cart through the cart API, whatever an earlier (perhaps failed) test left in it. */
export function emptyCart(shopper: Credentials) {
  return asPerson(shopper, removeEveryLine);
}

/**
 * `shopper` orders one of each plant through the cart and orders API, from an emptied cart, with these shipping
 * details; answers the order's id and number.
 */
export function orderAs(shopper: Credentials & { name: string }, productIds: string[], shipping: { phone: string; address: string; pin?: string }) {
  return asPerson(shopper, async (api) => {
    await removeEveryLine(api);
    for (const productId of productIds) await ok(await api.post("/api/cart/items", { data: { productId, quantity: 1 } }), `adding ${productId}`);
    const placed = await ok(await api.post("/api/orders", { data: { name: shopper.name, pin: "560004", ...shipping, idempotencyKey: randomUUID() } }), "placing the order");
    return (await placed.json()) as { id: string; number: string };
  });
}

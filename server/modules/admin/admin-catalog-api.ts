import { Hono, type Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

/** Who is asking, refused unless an admin before anything of the request is read (401 visitor, 403 user). */
async function admin(c: Context<AppEnv>) {
  return c.var.services.adminCatalog.requireAdmin(await currentUser(c));
}

/** /api/admin/products: the owner's catalogue. Every rule and the admin check are in the service. */
export const adminProductsApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.adminCatalog.listProducts(await admin(c), c.req.query())))
  .post("/", async (c) => {
    const user = await admin(c);
    return c.json(await c.var.services.adminCatalog.createProduct(user, await readJson(c)), 201);
  })
  .get("/:productId", async (c) => c.json(await c.var.services.adminCatalog.getProductForEdit(await admin(c), c.req.param())))
  .put("/:productId", async (c) => {
    const user = await admin(c);
    return c.json(await c.var.services.adminCatalog.updateProduct(user, c.req.param(), await readJson(c)));
  })
  .patch("/:productId/stock", async (c) => {
    const user = await admin(c);
    return c.json(await c.var.services.adminCatalog.setStock(user, c.req.param(), await readJson(c)));
  })
  .delete("/:productId", async (c) => c.json(await c.var.services.adminCatalog.deleteProduct(await admin(c), c.req.param())));

/** /api/admin/categories. */
export const adminCategoriesApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.adminCatalog.listCategories(await admin(c), c.req.query())))
  .patch("/:categoryId", async (c) => {
    const user = await admin(c);
    return c.json(await c.var.services.adminCatalog.renameCategory(user, c.req.param(), await readJson(c)));
  })
  .put("/:categoryId/image", async (c) => {
    const user = await admin(c);
    return c.json(await c.var.services.adminCatalog.setCategoryImage(user, c.req.param(), await readJson(c)));
  })
  .delete("/:categoryId", async (c) => c.json(await c.var.services.adminCatalog.deleteCategory(await admin(c), c.req.param())));

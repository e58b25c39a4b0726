import { index, route, type RouteConfig } from "@react-router/dev/routes";

// Explicit routes, one module per screen, so each screen's address and file can be found from this one list.
export default [
  index("pages/home.tsx"),
  route("shop", "pages/shop.tsx"),
  route("product/:productId", "pages/product.tsx"),
  route("category/:categoryId", "pages/category.tsx"),
  route("login", "features/accounts/routes/login.tsx"),
  route("register", "features/accounts/routes/register.tsx"),
  route("verify", "features/accounts/routes/verify.tsx"),
  route("logout", "features/accounts/routes/logout.tsx"),
  route("forgot-password", "features/accounts/routes/forgot-password.tsx"),
  route("reset-password", "features/accounts/routes/reset-password.tsx"),
  route("profile/:userId", "features/accounts/routes/profile.tsx"),
  route("add-product", "features/admin/routes/add-product.tsx"),
  route("product/:productId/edit", "features/admin/routes/edit-product.tsx"),
  route("cart", "pages/cart.tsx"),
  route("checkout", "features/orders/routes/checkout.tsx"),
  route("orders", "features/orders/routes/orders.tsx"),
  route("orders/:orderId", "features/orders/routes/order.tsx"),
  route("admin/products", "features/admin/routes/admin-products.tsx"),
  route("admin/categories", "features/admin/routes/admin-categories.tsx"),
  route("admin", "features/admin/routes/overview.tsx"),
  route("admin/messages", "features/admin/routes/messages.tsx"),
  route("admin/orders", "pages/admin-orders.tsx"),
  route("admin/orders/:orderId", "pages/admin-order.tsx"),
  route("*", "shared/routes/not-found.tsx"),
] satisfies RouteConfig;

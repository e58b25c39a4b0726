import { index, route, type RouteConfig } from "@react-router/dev/routes";

// Explicit routes (engineering guide): one module per screen.
export default [
  index("routes/home.tsx"),
  route("shop", "routes/shop.tsx"),
  route("product/:productId", "routes/product.tsx"),
  route("category/:categoryId", "routes/category.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("verify", "routes/verify.tsx"),
  route("logout", "routes/logout.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("profile/:userId", "routes/profile.tsx"),
  route("add-product", "routes/add-product.tsx"),
  route("cart", "routes/cart.tsx"),
  route("checkout", "routes/checkout.tsx"),
  route("orders", "routes/orders.tsx"),
  route("orders/:orderId", "routes/order.tsx"),
  route("admin/orders", "routes/admin-orders.tsx"),
  route("admin/orders/:orderId", "routes/admin-order.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;

// The coupons module's public face: the composition root, the other modules and the tests import only this.
export { adminCouponsApi } from "./coupons-api.ts";
export {
  appliedCoupon,
  applyCouponToCart,
  claimCouponUse,
  codeToApply,
  couponGuessRule,
  createCouponsService,
  giveBackCouponUse,
  removeCouponFromCart,
  type CouponsService,
} from "./coupons.ts";
export { type Judgement, type LineToDiscount } from "./coupon-rules.ts";
export { couponsMigrations } from "./migrations/coupons-migrations.ts";

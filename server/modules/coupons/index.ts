// The coupons module's public face: the composition root, the other modules and the tests import only this.
export { adminCouponsApi } from "./coupons-api.ts";
export {
  appliedCoupon,
  applyCouponToCart,
  claimCouponUse,
  claimingCouponUse,
  codeToApply,
  couponUseRefusal,
  couponGuessRule,
  createCouponsService,
  giveBackCouponUse,
  judgeAppliedCoupon,
  removeCouponFromCart,
  type CouponsService,
  type CouponUse,
} from "./coupons.ts";
export { appliedCouponToJudge, type CouponToJudgeRow, type Judgement, type LineToDiscount } from "./coupon-rules.ts";
export { couponsMigrations } from "./migrations/coupons-migrations.ts";

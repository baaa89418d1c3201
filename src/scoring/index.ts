export * from './ci-repair/index.js';
export * from './swe-ci/index.js';
export * from './swe-sweep/index.js';
export * from './render/index.js';
export { wilsonInterval, type Interval } from './stats/wilson.js';
export { mcnemarTest, MCNEMAR_EXACT_BELOW, type McNemarResult, type McNemarMethod } from './stats/mcnemar.js';
export { rate, type Rate } from './stats/rate.js';
export { exactSum, exactMean } from './stats/exact-sum.js';
export { normalQuantile } from './stats/normal-quantile.js';

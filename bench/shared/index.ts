export { createFloorCheck, createFloorVerifier, type FloorCheck, type FloorVerifier } from './floor.js';
export { type Candidate, cpuClock, measure, pairedRatio, type Result, ratio, verdict } from './measure.js';
export { createMinimalReceiver, type MinimalReceiver } from './minimal-receiver.js';
export { type Pinning, planPinning } from './pinning.js';
export { nowSeconds, signBody } from './sign.js';
export { formatCount, formatSpread, type Spread, spread } from './stats.js';

export { exampleEntitlement, uniqueId } from './conformance/example-entitlement.js';
export { ledgerChecks, runLedgerConformance } from './conformance/ledger-conformance.js';
export {
  type ConformanceCheck,
  type ConformanceOptions,
  runStoreConformance,
  storeChecks,
} from './conformance/store-conformance.js';
export type { DescribeFunction, ItFunction, TestRunner } from './conformance/test-runner.js';

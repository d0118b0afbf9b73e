export { exampleEntitlement, uniqueId } from './example-entitlement.js';
export { ledgerChecks, runLedgerConformance } from './ledger-conformance.js';
export {
  type ConformanceCheck,
  type ConformanceOptions,
  runStoreConformance,
  storeChecks,
} from './store-conformance.js';
export type { DescribeFunction, ItFunction, TestRunner } from './test-runner.js';

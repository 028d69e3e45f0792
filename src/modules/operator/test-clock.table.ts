/** The shared offset of the test clock: one row (id 1) written by migration 0007. */
export interface TestClockTable {
  id: number;
  offset_ms: number;
}

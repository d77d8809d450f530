// The drift report's categories for rows a declarative-data plan writes, and the change each one
// names. Read by the schema view (upstream's "Reference data" counts) and by the inbox (whether a
// waiting plan carries row values, without reading it).
export const ROW_DRIFT_CATEGORIES = { data_rows_inserted: "insert", data_rows_updated: "update", data_rows_deleted: "delete" } as const;

export type RowChange = (typeof ROW_DRIFT_CATEGORIES)[keyof typeof ROW_DRIFT_CATEGORIES];

/** The row change a drift category names, or undefined for any other category. */
export function rowChangeOf(category: string): RowChange | undefined {
  return Object.hasOwn(ROW_DRIFT_CATEGORIES, category) ? ROW_DRIFT_CATEGORIES[category as keyof typeof ROW_DRIFT_CATEGORIES] : undefined;
}

export type CsvValue = string | number | boolean | null | undefined;
export declare function csvField(value: CsvValue): string;
export declare function csvRecord(values: readonly CsvValue[]): string;

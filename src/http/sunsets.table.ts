/** A published sunset of a contract date (table `contract_sunsets`, migration 0023). */
export interface ContractSunsetsTable {
  contract_date: string;
  sunset_at: number;
  published_at: number;
}

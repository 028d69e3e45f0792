// Money is written by the one formatting module; this path stays for the pages that import it here.
export { formatMoney } from '../format';

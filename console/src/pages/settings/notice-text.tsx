import { Link } from 'react-router';
import type { NoticeRow } from '../../data/settings/queries';
import { countOf, formatDate, formatNumber } from '../../format';

export type Notice = NoticeRow;

/** A detail value as the sentence prints it (details are event payloads, so any JSON value). */
const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A notice as a sentence, and the page where it is dealt with. */
export function NoticeText({ notice }: { notice: Notice }) {
  const d = Object.fromEntries(Object.entries(notice.detail).map(([name, value]) => [name, textOf(value)]));
  switch (notice.kind) {
    case 'endpoint_disabled':
      return (
        <>
          Webhook endpoint {d.endpointHost} was disabled after{' '}
          {countOf(Number(d.consecutiveFailures), { one: 'failed delivery', other: 'failed deliveries' })};
          its events are held. <Link to="/webhooks">Review and enable it</Link>.
        </>
      );
    case 'allocation_depleted':
      return (
        <>
          The allocation for {d.skuCode} is used up. <Link to="/catalog/allocations">Request more keys</Link>.
        </>
      );
    case 'allocation_low_stock':
      return (
        <>
          The allocation for {d.skuCode} is low: {countOf(Number(d.remaining), 'key')} left (alert at{' '}
          {formatNumber(Number(d.threshold))}). <Link to="/catalog/allocations">Request more keys</Link>.
        </>
      );
    case 'contract_paused':
      return (
        <>
          A publisher paused contract {d.contractId}: its products cannot be sold until it resumes.{' '}
          <Link to="/catalog/partners">See your partners</Link>.
        </>
      );
    case 'contract_superseded':
      return (
        <>
          Contract {d.contractId} was replaced by {d.supersededBy}; the new terms apply now.{' '}
          <Link to="/catalog/partners">See your partners</Link>.
        </>
      );
    case 'delisting_scheduled':
      return (
        <>
          A product is scheduled to leave the catalog on {formatDate(String(d.effectiveAt))}.{' '}
          <Link to={`/catalog/products/${d.productId}`}>See the product</Link>.
        </>
      );
    default:
      return <>{notice.kind.replaceAll('_', ' ')}</>;
  }
}

import { Link } from 'react-router';
import { useEnvironmentLink } from '../../components/EnvironmentInAddress';

/**
 * An order reference as a link to the orders under it (in sandbox a reference is unique per API
 * key, so it can name more than one order), in the current environment.
 */
export function OrderReferenceLink({ reference }: { reference: string }) {
  const link = useEnvironmentLink();
  if (!reference) return <>—</>;
  return (
    <Link className="mono" to={link(`/orders?orderReference=${encodeURIComponent(reference)}`)}>
      {reference}
    </Link>
  );
}

import { Link } from 'react-router';
import { EmptyState } from '../components/ui';

export function NotFoundPage() {
  return (
    <EmptyState title="No such page">
      <p>
        <Link to="/">Back to Home</Link>
      </p>
    </EmptyState>
  );
}

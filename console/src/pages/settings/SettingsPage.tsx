import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { call } from '../../api/client';
import { can, useSession } from '../../components/session';
import { ErrorNotice, formatDate, PageHeader } from '../../components/ui';
import { type Footprint, FootprintEditor } from './FootprintEditor';
import { SettingsNav } from './SettingsNav';

interface CompanySettings {
  company: {
    id: string;
    name: string;
    country: string | null;
    productionAccess: boolean;
    apiAgreementSigned: boolean;
    createdAt: string | null;
  };
  footprint: Footprint;
  requireTotp: boolean;
}

/** The company profile, its standing (production access, agreement, settlement), the footprint. */
export function SettingsPage() {
  const session = useSession();
  const { hash } = useLocation();
  const settings = useQuery({
    queryKey: ['company'],
    queryFn: () => call<{ data: CompanySettings }>('GET', '/company'),
  });
  const data = settings.data?.data;
  useEffect(() => {
    if (data && hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [data, hash]);
  return (
    <>
      <PageHeader title="Settings" description="Your company, its standing and where it sells." />
      <SettingsNav />
      <ErrorNotice error={settings.error} />
      {data ? (
        <>
          <section className="card">
            <h2>Company profile</h2>
            <dl className="facts">
              <dt>Name</dt>
              <dd>{data.company.name}</dd>
              <dt>Registered country</dt>
              <dd>{data.company.country ?? 'not registered: ask your account manager to record it'}</dd>
              <dt>Company id</dt>
              <dd className="mono">{data.company.id}</dd>
              <dt>Customer since</dt>
              <dd>{formatDate(data.company.createdAt)}</dd>
              <dt>Two-factor sign-in</dt>
              <dd>
                {data.requireTotp ? 'required for every user' : 'each user chooses'}
                {can(session, 'users:manage') ? (
                  <>
                    {' '}
                    (<Link to="/settings/team">change</Link>)
                  </>
                ) : null}
              </dd>
            </dl>
          </section>
          <section className="card" id="standing">
            <h2>Standing: production access and settlement</h2>
            <p>
              {data.company.productionAccess
                ? 'Production access is approved: your company passed the business verification (KYB), and production keys work.'
                : 'Production access is not approved yet. Your account manager approves it once the business verification (KYB) is complete; until then production keys are refused with PRODUCTION_ACCESS_NOT_APPROVED. Sandbox keys work meanwhile.'}
            </p>
            <p>
              {data.company.apiAgreementSigned
                ? 'The API agreement is signed.'
                : 'The API agreement is not signed yet: your account manager sends it.'}
            </p>
            <p>
              Sales are settled after the fact: each month's statement and invoice list what you owe the
              publishers. This platform keeps no prepaid wallet, so there is nothing to top up before selling.
            </p>
          </section>
          <section className="card">
            <h2>Footprint</h2>
            <p className="muted">
              The countries and currencies you sell in. Orders for a country or currency outside it are
              refused.
            </p>
            <FootprintEditor footprint={data.footprint} editable={can(session, 'footprint:write')} />
          </section>
        </>
      ) : null}
    </>
  );
}

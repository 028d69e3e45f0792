import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { can, useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { type FootprintChecks, useCompanySettings } from '../../data/settings/queries';
import { formatDate } from '../../format';
import { FootprintEditor } from './FootprintEditor';
import { SettingsNav } from './SettingsNav';

const ENVIRONMENTS = ['sandbox', 'production'] as const;
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What an order meets, said from the service's checks: the sentence cannot drift from the rule. */
function footprintRule(checks: FootprintChecks, declared: boolean): string {
  const checked = ENVIRONMENTS.filter((environment) => checks[environment]).join(' and ');
  const open = ENVIRONMENTS.filter((environment) => !checks[environment]).join(' and ');
  const sentences: string[] = [];
  if (checked) {
    sentences.push(
      declared
        ? `${capitalised(checked)} orders for a country or currency outside this footprint are refused.`
        : `${capitalised(checked)} orders are refused until you declare a footprint.`,
    );
  }
  if (open) {
    sentences.push(
      `${capitalised(open)} orders are not checked while no footprint is declared: they go through for any country and currency.`,
    );
  }
  return sentences.join(' ');
}

/** The company profile, its standing (production access, agreement, settlement), the footprint. */
export function SettingsPage() {
  const session = useSession();
  const { hash } = useLocation();
  const settings = useCompanySettings();
  const data = settings.data;
  useEffect(() => {
    if (!data || !hash) return;
    const section = document.getElementById(hash.slice(1));
    section?.scrollIntoView();
    // Opened to edit (the Home checklist): the first field takes the cursor.
    section?.querySelector<HTMLInputElement>('input:not([readonly])')?.focus();
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
          <section className="card" id="footprint">
            <h2>Footprint</h2>
            <p>
              The countries and currencies you sell in.{' '}
              {footprintRule(data.footprintChecks, data.footprint.updatedAt !== null)}
            </p>
            <FootprintEditor footprint={data.footprint} editable={can(session, 'footprint:write')} />
          </section>
        </>
      ) : null}
    </>
  );
}

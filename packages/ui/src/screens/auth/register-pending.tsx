import { Link, useLocation } from '../../app/router';
import { paths } from '../../app/paths';
import { Page } from '../../components/page';
import { texts } from '../../texts';

/** `/register/pending`: thanks, the account waits for an admin. */
export function RegisterPendingScreen() {
  const { state } = useLocation() as { state: { approved?: boolean } | null };
  const firstAdmin = state?.approved === true;
  return (
    <Page title="Thank you for registering">
      <p className="lead">{firstAdmin ? texts.registerFirstAdmin : texts.registerPending}</p>
      <div className="actions">
        {firstAdmin ? (
          <Link className="button button--primary" to={paths.login}>
            Login
          </Link>
        ) : (
          <Link className="button" to={paths.landing}>
            Back to the start page
          </Link>
        )}
      </div>
    </Page>
  );
}

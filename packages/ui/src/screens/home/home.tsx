import { messages } from '@vita-docs/core';
import { Link } from '../../app/router';
import { paths } from '../../app/paths';
import { useSession } from '../../app/session';
import { Loading, Page } from '../../components/page';
import { Dashboard } from './dashboard';

/** `/home` (docs/behaviour.md#dashboard): the dashboard, or "Not signed in" when the session check fails. */
export function HomeScreen() {
  const session = useSession();
  if (session.status === 'checking') {
    return (
      <Page title="Home" width="wide">
        <Loading />
      </Page>
    );
  }
  if (session.status === 'signedOut') return <NotSignedIn />;
  const { user } = session;
  // A new dashboard (and fresh lists) when a refresh reveals different permissions.
  return <Dashboard key={`${user.email}|${user.role}|${user.isAdmin}`} user={user} />;
}

function NotSignedIn() {
  return (
    <Page title={messages.notSignedIn}>
      <div className="actions">
        <Link className="button" to={paths.landing}>
          Go to Landing
        </Link>
        <Link className="button button--primary" to={paths.login}>
          Login
        </Link>
        <Link className="button" to={paths.register}>
          Register
        </Link>
      </div>
    </Page>
  );
}

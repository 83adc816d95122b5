import { messages } from '@vita-docs/core';
import { Link, Navigate } from '../../app/router';
import { paths } from '../../app/paths';
import { useServices } from '../../app/services';
import { useSession } from '../../app/session';
import { Page } from '../../components/page';

/**
 * `/` (docs/behaviour.md#landing-screen): the tagline, Login, Register and the programme's website;
 * signed in → /home.
 */
export function LandingScreen() {
  const session = useSession();
  const { config } = useServices();
  // The page shows at once and only moves on when a session turns out to exist: no blank first paint.
  if (session.status === 'signedIn') return <Navigate to={paths.home} replace />;
  return (
    <Page title="Welcome" heading={messages.landingTagline}>
      <p className="lead">
        Volunteers of the free tax help programme collect each client&rsquo;s documents here, by upload or
        phone photo, and keep them per client and category.
      </p>
      <div className="actions">
        <Link className="button button--primary" to={paths.login}>
          Login
        </Link>
        <Link className="button" to={paths.register}>
          Register
        </Link>
      </div>
      <p>
        <a href={config.programmeUrl} target="_blank" rel="noopener noreferrer">
          Visit the programme&rsquo;s website
        </a>
      </p>
    </Page>
  );
}

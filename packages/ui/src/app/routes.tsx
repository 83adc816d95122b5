import { Navigate, Route, Switch } from './router';
import { LandingScreen } from '../screens/auth/landing';
import { CategoryRoute, ClientDocsRoute, ClientListRoute, NewClientRoute } from './document-routes';
import { RootLayout } from './layout';
import {
  AccountRoute,
  AdminAuditRoute,
  AdminSeasonRoute,
  AdminSettingsRoute,
  AdminUserRoute,
  ForgotResetRoute,
  ForgotRoute,
  ForgotVerifyRoute,
  HomeRoute,
  LoginRoute,
  LoginVerifyRoute,
  RegisterPendingRoute,
  RegisterRoute,
} from './lazy-screens';
import { RequireSession } from './require-session';

/**
 * Every route of docs/behaviour.md#routes; any other path goes to `/`. Render it inside one of the
 * routers of ./router (`BrowserRouter` on the web, `HashRouter` in the desktop app) and inside
 * `<AppProviders>`.
 */
export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path="/">
          <LandingScreen />
        </Route>
        <Route path="/register">
          <RegisterRoute />
        </Route>
        <Route path="/register/pending">
          <RegisterPendingRoute />
        </Route>
        <Route path="/login">
          <LoginRoute />
        </Route>
        <Route path="/login/verify">
          <LoginVerifyRoute />
        </Route>
        <Route path="/forgot">
          <ForgotRoute />
        </Route>
        <Route path="/forgot/verify">
          <ForgotVerifyRoute />
        </Route>
        <Route path="/forgot/reset">
          <ForgotResetRoute />
        </Route>
        <Route path="/home">
          <HomeRoute />
        </Route>
        <Route path="/account">
          <AccountRoute />
        </Route>
        <Route path="/admin/users/:userEmail">
          <AdminUserRoute />
        </Route>
        <Route path="/admin/audit">
          <AdminAuditRoute />
        </Route>
        <Route path="/admin/settings">
          <AdminSettingsRoute />
        </Route>
        <Route path="/admin/season">
          <AdminSeasonRoute />
        </Route>
        <Route path="/clients">
          <RequireSession>
            <ClientListRoute />
          </RequireSession>
        </Route>
        <Route path="/clients/new">
          <RequireSession>
            <NewClientRoute />
          </RequireSession>
        </Route>
        <Route path="/clients/:clientId/docs">
          <RequireSession>
            <ClientDocsRoute />
          </RequireSession>
        </Route>
        <Route path="/clients/:clientId/docs/:docType">
          <RequireSession>
            <CategoryRoute />
          </RequireSession>
        </Route>
        <Route>
          <Navigate to="/" replace />
        </Route>
      </Switch>
    </RootLayout>
  );
}

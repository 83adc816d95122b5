import { Navigate, Route, Routes } from 'react-router';
import { LandingScreen } from '../screens/auth/landing';
import { LoginScreen } from '../screens/auth/login';
import { LoginVerifyScreen } from '../screens/auth/login-verify';
import { RegisterScreen } from '../screens/auth/register';
import { RegisterPendingScreen } from '../screens/auth/register-pending';
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
} from './lazy-screens';
import { RequireSession } from './require-session';

/**
 * Every route of docs/behaviour.md#routes; any other path goes to `/`. Render it inside a router
 * (`BrowserRouter` on the web, `HashRouter` in the desktop app) and inside `<AppProviders>`.
 *
 * Declarative routes rather than a data router: the app loads its data through core's flows, not
 * route loaders, and the data router would add about 17 KB (gzip) to the first page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<LandingScreen />} />
        <Route path="register" element={<RegisterScreen />} />
        <Route path="register/pending" element={<RegisterPendingScreen />} />
        <Route path="login" element={<LoginScreen />} />
        <Route path="login/verify" element={<LoginVerifyScreen />} />
        <Route path="forgot" element={<ForgotRoute />} />
        <Route path="forgot/verify" element={<ForgotVerifyRoute />} />
        <Route path="forgot/reset" element={<ForgotResetRoute />} />
        <Route path="home" element={<HomeRoute />} />
        <Route path="account" element={<AccountRoute />} />
        <Route path="admin/users/:userEmail" element={<AdminUserRoute />} />
        <Route path="admin/audit" element={<AdminAuditRoute />} />
        <Route path="admin/settings" element={<AdminSettingsRoute />} />
        <Route path="admin/season" element={<AdminSeasonRoute />} />
        <Route path="clients" element={<RequireSession />}>
          <Route index element={<ClientListRoute />} />
          <Route path="new" element={<NewClientRoute />} />
          <Route path=":clientId/docs" element={<ClientDocsRoute />} />
          <Route path=":clientId/docs/:docType" element={<CategoryRoute />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}

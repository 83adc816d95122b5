import type { ComponentType } from 'react';
import { lazyPart } from '../components/lazy-part';
import { paths } from './paths';

/** A lazily loaded screen that can also be fetched ahead: once fetched, it renders without suspending. */
export type PreloadableScreen = ComponentType & { preload(): Promise<unknown> };

/** A screen from its chunk: fetched ahead by `preload`, it renders without suspending (`lazyPart`). */
function screen(load: () => Promise<ComponentType>): PreloadableScreen {
  const { Part, load: preload } = lazyPart(load);
  return Object.assign(Part, { preload });
}

/**
 * Every screen but the landing page, each fetched when first shown: a first visit downloads only what
 * the landing page needs. The service worker keeps every chunk once installed (right after that first
 * visit), and the kiosk loads them from disk, so signing in does not wait on the network after that.
 */
export const LoginRoute = screen(async () => (await import('../screens/auth/login')).LoginScreen);

export const LoginVerifyRoute = screen(
  async () => (await import('../screens/auth/login-verify')).LoginVerifyScreen,
);

export const RegisterRoute = screen(async () => (await import('../screens/auth/register')).RegisterScreen);

export const RegisterPendingRoute = screen(
  async () => (await import('../screens/auth/register-pending')).RegisterPendingScreen,
);

export const HomeRoute = screen(async () => (await import('../screens/home/home')).HomeScreen);

export const AdminUserRoute = screen(async () => (await import('../screens/admin-user')).AdminUserScreen);

export const AdminAuditRoute = screen(async () => (await import('../screens/admin-audit')).AdminAuditScreen);

export const AdminSettingsRoute = screen(
  async () => (await import('../screens/admin-settings')).AdminSettingsScreen,
);

export const AdminSeasonRoute = screen(
  async () => (await import('../screens/admin-season')).AdminSeasonScreen,
);

export const ForgotRoute = screen(async () => (await import('../screens/auth/forgot')).ForgotScreen);

export const ForgotVerifyRoute = screen(
  async () => (await import('../screens/auth/forgot')).ForgotVerifyScreen,
);

export const ForgotResetRoute = screen(
  async () => (await import('../screens/auth/forgot')).ForgotResetScreen,
);

export const AccountRoute = screen(async () => (await import('../screens/account')).AccountScreen);

/** The screens above by their address (the one with a parameter, `/admin/users/:userEmail`, apart). */
const SCREENS = new Map<string, PreloadableScreen>([
  [paths.login, LoginRoute],
  [paths.loginVerify, LoginVerifyRoute],
  [paths.register, RegisterRoute],
  [paths.registerPending, RegisterPendingRoute],
  [paths.home, HomeRoute],
  [paths.adminAudit, AdminAuditRoute],
  [paths.adminSettings, AdminSettingsRoute],
  [paths.adminSeason, AdminSeasonRoute],
  [paths.forgot, ForgotRoute],
  [paths.forgotVerify, ForgotVerifyRoute],
  [paths.forgotReset, ForgotResetRoute],
  [paths.account, AccountRoute],
]);

/**
 * Fetches the screen of `pathname` (if it is one of the above), so the app's first render shows it
 * rather than a loading line first: the page the server sends already asks for its chunk beside the
 * entry (apps/server app-page.ts), so this mostly waits for what is on its way.
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  const found = SCREENS.get(pathname) ?? (/^\/admin\/users\/[^/]+$/.test(pathname) ? AdminUserRoute : null);
  return found ? found.preload() : Promise.resolve();
}

import { lazy } from 'react';

/**
 * Every screen but the landing page, each fetched when first shown: a first visit downloads only what
 * the landing page needs. The service worker keeps every chunk once installed (right after that first
 * visit), and the kiosk loads them from disk, so signing in does not wait on the network after that.
 */
export const LoginRoute = lazy(async () => ({
  default: (await import('../screens/auth/login')).LoginScreen,
}));

export const LoginVerifyRoute = lazy(async () => ({
  default: (await import('../screens/auth/login-verify')).LoginVerifyScreen,
}));

export const RegisterRoute = lazy(async () => ({
  default: (await import('../screens/auth/register')).RegisterScreen,
}));

export const RegisterPendingRoute = lazy(async () => ({
  default: (await import('../screens/auth/register-pending')).RegisterPendingScreen,
}));

export const HomeRoute = lazy(async () => ({ default: (await import('../screens/home/home')).HomeScreen }));

export const AdminUserRoute = lazy(async () => ({
  default: (await import('../screens/admin-user')).AdminUserScreen,
}));

export const AdminAuditRoute = lazy(async () => ({
  default: (await import('../screens/admin-audit')).AdminAuditScreen,
}));

export const AdminSettingsRoute = lazy(async () => ({
  default: (await import('../screens/admin-settings')).AdminSettingsScreen,
}));

export const AdminSeasonRoute = lazy(async () => ({
  default: (await import('../screens/admin-season')).AdminSeasonScreen,
}));

export const ForgotRoute = lazy(async () => ({
  default: (await import('../screens/auth/forgot')).ForgotScreen,
}));

export const ForgotVerifyRoute = lazy(async () => ({
  default: (await import('../screens/auth/forgot')).ForgotVerifyScreen,
}));

export const ForgotResetRoute = lazy(async () => ({
  default: (await import('../screens/auth/forgot')).ForgotResetScreen,
}));

export const AccountRoute = lazy(async () => ({
  default: (await import('../screens/account')).AccountScreen,
}));

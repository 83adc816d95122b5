import { lazy } from 'react';

/**
 * Screens a first visit to the landing page does not need, each fetched when first shown: the
 * signed-in dashboard, the admin user page and the rarely used password reset. The landing, register
 * and login screens stay in the first download so signing in never waits on the network.
 */
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

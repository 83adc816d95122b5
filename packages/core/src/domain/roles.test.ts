import { describe, expect, it } from 'vitest';
import { canAccessClient, canDeleteUser, canSetRole, roleTag, type Actor } from './roles.js';

const admin: Actor = { email: 'a@x.org', role: 'officer', isAdmin: true, approved: true };
const officer: Actor = { email: 'o@x.org', role: 'officer', isAdmin: false, approved: true };
const volunteer: Actor = { email: 'v@x.org', role: 'volunteer', isAdmin: false, approved: true };

describe('role rules', () => {
  it('admins set officer or volunteer on non-admins; nobody changes an admin', () => {
    expect(canSetRole(admin, volunteer, 'officer')).toBe(true);
    expect(canSetRole(admin, officer, 'volunteer')).toBe(true);
    expect(canSetRole(admin, admin, 'volunteer')).toBe(false);
    expect(canSetRole(officer, admin, 'volunteer')).toBe(false);
  });

  it('officers only set volunteer, and not on other officers', () => {
    expect(canSetRole(officer, volunteer, 'volunteer')).toBe(true);
    expect(canSetRole(officer, volunteer, 'officer')).toBe(false);
    expect(canSetRole(officer, { ...officer, email: 'o2@x.org' }, 'volunteer')).toBe(false);
    expect(canSetRole(volunteer, volunteer, 'volunteer')).toBe(false);
  });

  it('admins delete users but never admins', () => {
    expect(canDeleteUser(admin, volunteer)).toBe(true);
    expect(canDeleteUser(admin, { ...admin, email: 'a2@x.org' })).toBe(false);
    expect(canDeleteUser(officer, volunteer)).toBe(false);
  });

  it('a client is open to its owner and admins only', () => {
    expect(canAccessClient(volunteer, { createdBy: 'v@x.org' })).toBe(true);
    expect(canAccessClient(officer, { createdBy: 'v@x.org' })).toBe(false);
    expect(canAccessClient(admin, { createdBy: null })).toBe(true);
    expect(canAccessClient(volunteer, { createdBy: null })).toBe(false);
  });

  it('tags admins and officers', () => {
    expect(roleTag(admin)).toBe('Admin');
    expect(roleTag(officer)).toBe('Officer');
    expect(roleTag(volunteer)).toBeNull();
  });
});

/** A small label such as Admin, Officer or Volunteer. */
export function Tag({ children, tone = 'plain' }: { children: string; tone?: 'plain' | 'strong' }) {
  return <span className={`tag tag--${tone}`}>{children}</span>;
}

/** How a role reads on screen. */
export function roleLabel(role: 'volunteer' | 'officer'): string {
  return role === 'officer' ? 'Officer' : 'Volunteer';
}

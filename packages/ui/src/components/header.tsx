import { NavLink } from 'react-router';
import { paths } from '../app/paths';
import { PRODUCT_TITLE } from '../texts';

/** The header on every page: the product title and a Home link to /home. */
export function Header() {
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <span className="app-header__title">{PRODUCT_TITLE}</span>
        <nav aria-label="Main">
          <NavLink className="app-header__link" to={paths.home}>
            Home
          </NavLink>
        </nav>
      </div>
    </header>
  );
}

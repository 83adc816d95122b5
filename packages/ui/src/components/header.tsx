import { NavLink } from '../app/router';
import { paths } from '../app/paths';
import { useUploadQueues } from '../app/upload-queues';
import { useFlow } from '../hooks/use-flow';
import { PRODUCT_TITLE } from '../texts';
import { LazyUploadTray } from './lazy-parts';

/** The header on every page: the product title, the upload tray while files are queued, and a Home link to /home. */
export function Header() {
  const queued = useFlow(useUploadQueues().summary).items.length > 0;
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <span className="app-header__title">{PRODUCT_TITLE}</span>
        {queued && <LazyUploadTray />}
        <nav aria-label="Main">
          <NavLink className="app-header__link" to={paths.home}>
            Home
          </NavLink>
        </nav>
      </div>
    </header>
  );
}

/** The tab bar (spec section 2): the sections as links, scrolling sideways on narrow screens. */
import { Link, useLocation } from 'react-router-dom';
import { useIsAdmin } from '../hooks/useIsAdmin';
import { TAB_LINKS, isActivePath } from './navigation';
import classes from './layout.module.css';

export function TabBar() {
  const { pathname } = useLocation();
  const { isAdmin } = useIsAdmin();
  return (
    <nav aria-label="Sections" className={classes.tabBar}>
      {TAB_LINKS.filter((tab) => !tab.adminOnly || isAdmin).map((tab) => {
        const active = isActivePath(pathname, tab.to);
        return (
          <Link key={tab.to} to={tab.to} className={classes.tab} aria-current={active ? 'page' : undefined}>
            <tab.icon size={16} aria-hidden />
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** The tab bar (spec section 2): the sections as links, scrolling sideways on narrow screens. */
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MoreOutOfView } from '../components/MoreOutOfView';
import { useIsAdmin } from '../hooks/useIsAdmin';
import { useMoreOutOfView } from '../hooks/useMoreOutOfView';
import { TAB_LINKS, isActivePath } from './navigation';
import classes from './layout.module.css';

export function TabBar() {
  const { pathname } = useLocation();
  const { isAdmin } = useIsAdmin();
  const bar = useRef<HTMLElement>(null);
  // The last tabs are often out of view (a phone, or a laptop beside the side menu): an arrow says so.
  const more = useMoreOutOfView(bar);
  // The current section's tab in view: on a phone, Profile or Admin sat out of sight at the end.
  useEffect(() => {
    const element = bar.current;
    const active = element?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!element || !active) return;
    const left = active.offsetLeft - element.offsetLeft;
    if (left < element.scrollLeft || left + active.offsetWidth > element.scrollLeft + element.clientWidth) element.scrollLeft = Math.max(0, left - 16);
  }, [pathname, isAdmin]);
  return (
    <div className={classes.tabBarFrame}>
      <nav ref={bar} aria-label="Sections" className={classes.tabBar}>
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
      <MoreOutOfView more={more} top={5} />
    </div>
  );
}

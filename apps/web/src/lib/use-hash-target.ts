import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Elements that take focus without a tabindex of their own. */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** Scrolls to the element and focuses it, so keyboard and screen reader users start there too. */
function reveal(element: HTMLElement): void {
  if (!element.matches(FOCUSABLE)) element.setAttribute('tabindex', '-1');
  element.setAttribute('data-hash-target', '');
  element.scrollIntoView?.({ block: 'center' });
  element.focus({ preventScroll: true });
}

/**
 * Issue 33: a screen opened at `#<id>` (a search result's link) scrolls to that row and focuses it
 * once it has rendered — lists arrive after their queries, so it waits for the element to appear.
 * It gives up when the user starts doing something else, so focus never jumps under their hands.
 */
export function useHashTarget(): void {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (hash.length < 2) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    // Present and not in a hidden tab panel (a screen may switch to the tab holding it).
    const shown = () => {
      const element = document.getElementById(id);
      return element && !element.closest('[hidden]') ? element : null;
    };
    const found = shown();
    if (found) {
      // After the other effects of this navigation: the root layout focuses <main> on every new page.
      let cancelled = false;
      queueMicrotask(() => {
        if (!cancelled) reveal(found);
      });
      return () => {
        cancelled = true;
      };
    }
    const observer = new MutationObserver(() => {
      const element = shown();
      if (!element) return;
      stop();
      reveal(element);
    });
    const stop = () => {
      observer.disconnect();
      document.removeEventListener('pointerdown', stop, true);
      document.removeEventListener('keydown', stop, true);
    };
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
    document.addEventListener('pointerdown', stop, true);
    document.addEventListener('keydown', stop, true);
    return stop;
  }, [hash, key]);
}

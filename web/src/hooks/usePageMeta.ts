import { useEffect } from 'react';

const PRODUCT_NAME = 'Marketcraft';
const DEFAULT_DESCRIPTION = 'Marketcraft: Master Economics Through Play. Build, trade and compete in a turn-based business game.';

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.content = content;
}

/** Sets the document title ("Market | Marketcraft") and the description and social meta tags. */
export function usePageMeta(title: string, description: string = DEFAULT_DESCRIPTION): void {
  useEffect(() => {
    const fullTitle = `${title} | ${PRODUCT_NAME}`;
    document.title = fullTitle;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', fullTitle);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:site_name', PRODUCT_NAME);
    setMeta('name', 'twitter:title', fullTitle);
    setMeta('name', 'twitter:description', description);
  }, [title, description]);
}

import { useEffect, useRef } from 'react';
import { takeSharedItems, type SharedItems } from './share-target';

/** Hands what the share sheet sent to the Upload panel, once, when it mounts. */
export function useSharedItems(receive: (items: SharedItems) => void) {
  const taken = useRef(false);
  useEffect(() => {
    if (taken.current) return;
    taken.current = true;
    takeSharedItems().then(
      (items) => items && receive(items),
      () => {},
    );
    // Once per mount by design: the items are removed as they are taken.
  }, []);
}

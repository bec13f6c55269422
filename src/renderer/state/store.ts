// A tiny reducer store: state changes only through typed actions, readable synchronously by async commands.
/*
 * Design note: React's useReducer hands the new state to the next render only, so an async command
 * (analyze, explain) that dispatches and then reads the state would see the old one; App used to
 * mirror several useStates into refs for that. The store applies the reducer at dispatch time and
 * keeps the result, so `getState()` is always the latest, and `useStore` subscribes the component
 * through useSyncExternalStore. The reducer stays a pure function that the unit tests call directly.
 */
import { useSyncExternalStore } from 'react';

/** A reducer store: the latest state, dispatch, and change subscriptions. */
export interface Store<S, A> {
  getState(): S;
  dispatch(action: A): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** A store over a pure reducer. A dispatch that returns the same state notifies nobody. */
export function createStore<S, A>(reducer: (state: S, action: A) => S, initial: S): Store<S, A> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reducer(state, action);
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's current state; the component re-renders on every change. */
export function useStore<S, A>(store: Store<S, A>): S {
  return useSyncExternalStore(store.subscribe, store.getState);
}

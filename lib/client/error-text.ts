'use client';

import { createContext, useContext } from 'react';
import { describeError } from './format';

/**
 * How the consoles turn a failure into a sentence, in the reader's language: a page with the
 * `errors` messages provides describeError bound to them (app/_components/error-text.tsx); a
 * page without them (no provider) gets describeError's English.
 */
export const ErrorTextContext = createContext<(err: unknown) => string>(describeError);

/** describeError in the language of the page (English where the page has no `errors` messages). */
export const useDescribeError = () => useContext(ErrorTextContext);

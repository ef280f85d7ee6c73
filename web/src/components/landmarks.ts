import { createContext } from 'react';

/** True below the signed-in layout's <main>, so a page rendered there does not open a second main landmark. */
export const InsideMain = createContext(false);

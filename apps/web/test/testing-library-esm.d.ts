// The ES module build of Testing Library, which test/testing-library.tsx wraps: the same API.
declare module '@testing-library/react/dist/@testing-library/react.esm.js' {
  export * from '@testing-library/react';
}

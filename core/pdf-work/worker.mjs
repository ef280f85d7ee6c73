// Entry of a PDF worker thread. A worker starts without the loader that runs this project's TypeScript when vitest
// started the process (and `node --import tsx` hands its loader down only as an execArgv the pool may not keep), so
// worker.ts is imported through tsx's own API, which registers a loader for this import in any case.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./worker.ts', import.meta.url);

export default worker.default;

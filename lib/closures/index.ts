import 'server-only';

// Room closures: rooms closed for a period with a reason, their bookings cancelled on the residents' behalf.
export {
  closureCancelKey,
  createClosure,
  listClosures,
  liftClosure,
  previewClosure,
  readClosureView,
  runClosure,
  runClosureJob,
  type ClosureDeps,
} from './closures';
export { readClosureReason, readClosureWindows } from './read';
export { resumeClosures, startClosureJob, startClosureWorker, stopClosureWorker } from './worker';
export * from './schemas';
export type * from './types';

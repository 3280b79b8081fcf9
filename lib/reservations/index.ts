import 'server-only';

// Booking and cancelling on behalf of residents, and settling requests whose outcome never came.
export { applyWebhookOutcome, toRequestView } from './lifecycle';
export {
  parseIdempotencyKey,
  requestBooking,
  requestCancellation,
  type RequestAnswer,
  type ReservationDeps,
  type Requester,
  type SystemContext,
} from './requests';
export { reconcilePending, startReconciler, stopReconciler, wakeReconciler, RECONCILE_INTERVAL_MS, type ReconcileDeps } from './reconcile';
export { clearResidentCache, findResident, residentSummary, type Resident } from './residents';
export * from './reasons';
export * from './schemas';

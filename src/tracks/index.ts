export { createTrackService, type TrackService, type TrackServiceDeps } from './service.js';
export { trackView, roundValid, type TrackView, type TrackRoundView } from './track-view.js';

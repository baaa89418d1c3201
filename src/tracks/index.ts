export { createTrackService, type TrackService, type TrackServiceDeps, type SweCiRunReport } from './service.js';
export { combinePatches } from './combine-patches.js';
export { trackView, roundValid, type TrackView, type TrackRoundView } from './track-view.js';
export { renderRunTracks, renderTrack, TRACK_FORMATS, type RenderedTracks } from './render.js';

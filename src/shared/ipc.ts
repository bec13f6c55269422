// The IPC channel names shared by main and preload.
export const INVOKE_CHANNEL = 'sargable:invoke';
/** Renderer → main: start an event stream (subscription id, channel, args). */
export const LISTEN_CHANNEL = 'sargable:listen';
/** Renderer → main: stop an event stream (subscription id). */
export const UNLISTEN_CHANNEL = 'sargable:unlisten';
/** Main → renderer: one EventMessage of a stream (subscription id, message). */
export const EVENT_CHANNEL = 'sargable:event';

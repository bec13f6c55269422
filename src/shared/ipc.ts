// The single IPC channel name shared by main and preload.
export const INVOKE_CHANNEL = 'sargable:invoke';
